//! Asking the animator for a path: the system's file dialog where there is one, the
//! built-in browser ([`crate::file_browser`]) where there is not.
//!
//! On Linux rfd opens the xdg desktop portal's file chooser over D-Bus, and falls back to
//! `zenity`. Where neither exists (no D-Bus session, no portal backend, a bare window
//! manager, a container) every call returns "cancelled" at once and only the log says why,
//! so a dialog can never be told to have failed from what it returns. Instead the editor
//! asks beforehand, once, on a thread started with it: is `zenity` on the `PATH`, or does
//! the portal answer for `org.freedesktop.portal.FileChooser` (and can rfd load
//! `libdbus-1`)? If not, the built-in browser takes every request and the status line says
//! so the first time. `ANYMORPH_FILE_DIALOG=builtin` (or `system`) skips the question.

use crate::command::Command;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// The environment variable that picks the file dialog: `builtin`, `system` or `auto`.
pub const ENV_VAR: &str = "ANYMORPH_FILE_DIALOG";

/// Which file dialog the editor uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FileDialogChoice {
    /// The system's where one can open, else the built-in browser.
    #[default]
    Auto,
    /// Always the system's (rfd), as before the built-in browser existed.
    System,
    /// Always the built-in browser.
    BuiltIn,
}

impl FileDialogChoice {
    /// What [`ENV_VAR`] asks for (`Auto` when unset or unrecognized).
    pub fn from_env() -> Self {
        match std::env::var(ENV_VAR) {
            Ok(v) => Self::parse(&v).unwrap_or_else(|| {
                log::warn!("{ENV_VAR}={v}: expected builtin, system or auto");
                Self::Auto
            }),
            Err(_) => Self::Auto,
        }
    }

    fn parse(text: &str) -> Option<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "auto" | "" => Some(Self::Auto),
            "system" => Some(Self::System),
            "builtin" | "built-in" | "internal" => Some(Self::BuiltIn),
            _ => None,
        }
    }
}

/// What kind of path is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathKind {
    OpenFile,
    SaveFile,
    Folder,
}

/// What the chosen path is for: the commands it turns into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathPurpose {
    OpenProject,
    /// Save the project there; `then_close` when the animator was closing the window.
    SaveProject {
        then_close: bool,
    },
    /// A creature file or a glTF rig for the roster.
    AddCreature,
    /// Bake the active clip into this folder.
    Bake,
    /// Save roster creature `index` as a creature file.
    SaveCreature(usize),
}

impl PathPurpose {
    /// The commands that do what the path was asked for.
    pub fn commands(&self, path: PathBuf) -> Vec<Command> {
        match self {
            PathPurpose::OpenProject => vec![Command::OpenProjectPath(path)],
            PathPurpose::SaveProject { then_close } => {
                let mut c = vec![Command::SaveProjectTo(path)];
                if *then_close {
                    // Closes only if the save left nothing unsaved (the close guard asks).
                    c.push(Command::Quit);
                }
                c
            }
            PathPurpose::AddCreature => vec![Command::AddCreature(path)],
            PathPurpose::Bake => vec![Command::BakeGltfTo(path)],
            PathPurpose::SaveCreature(creature) => vec![Command::SaveCreatureTo {
                creature: *creature,
                path,
            }],
        }
    }
}

/// A named set of file extensions (without the dot), as file dialogs show them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileFilter {
    pub name: String,
    pub extensions: Vec<String>,
}

impl FileFilter {
    pub fn new(name: &str, extensions: &[&str]) -> Self {
        FileFilter {
            name: name.into(),
            extensions: extensions.iter().map(|e| e.to_string()).collect(),
        }
    }

    /// Whether a file name has one of the extensions (any case).
    pub fn matches(&self, file_name: &str) -> bool {
        let name = file_name.to_ascii_lowercase();
        self.extensions
            .iter()
            .any(|e| e == "*" || name.ends_with(&format!(".{}", e.to_ascii_lowercase())))
    }
}

/// One question for a path, answered by either dialog.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRequest {
    pub purpose: PathPurpose,
    pub kind: PathKind,
    /// The dialog's title ("Open Project").
    pub title: String,
    /// The button that accepts the path in the built-in browser ("Open Project").
    pub accept: String,
    pub filters: Vec<FileFilter>,
    /// Where to start browsing.
    pub directory: Option<PathBuf>,
    /// The name a save starts with.
    pub file_name: Option<String>,
}

impl FileRequest {
    pub fn new(purpose: PathPurpose, kind: PathKind, title: &str, accept: &str) -> Self {
        FileRequest {
            purpose,
            kind,
            title: title.into(),
            accept: accept.into(),
            filters: Vec::new(),
            directory: None,
            file_name: None,
        }
    }

    pub fn filter(mut self, name: &str, extensions: &[&str]) -> Self {
        self.filters.push(FileFilter::new(name, extensions));
        self
    }

    pub fn directory(mut self, dir: Option<&Path>) -> Self {
        self.directory = dir.map(Path::to_path_buf);
        self
    }

    pub fn file_name(mut self, name: impl Into<String>) -> Self {
        self.file_name = Some(name.into());
        self
    }

    /// Asks through the system's dialog (blocking until the animator answers). `None`:
    /// cancelled, or the dialog could not open.
    pub fn ask_system(&self) -> Option<PathBuf> {
        let mut dialog = rfd::FileDialog::new().set_title(&self.title);
        for f in &self.filters {
            dialog = dialog.add_filter(&f.name, &f.extensions);
        }
        if let Some(dir) = &self.directory {
            dialog = dialog.set_directory(dir);
        }
        if let Some(name) = &self.file_name {
            dialog = dialog.set_file_name(name);
        }
        match self.kind {
            PathKind::OpenFile => dialog.pick_file(),
            PathKind::SaveFile => dialog.save_file(),
            PathKind::Folder => dialog.pick_folder(),
        }
    }
}

/// Which dialog answers a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    System,
    /// The built-in browser; `why` says what is missing when the system's cannot open
    /// (`None`: the built-in browser was asked for).
    BuiltIn {
        why: Option<String>,
    },
}

/// Whether the system's file dialog can open, found out once.
pub struct SystemDialogs {
    choice: FileDialogChoice,
    /// The probe's answer once it came (`Err`: why the system dialog cannot open).
    answer: Option<Result<(), String>>,
    pending: Option<mpsc::Receiver<Result<(), String>>>,
}

/// How long a request waits for the probe's answer when it has not come yet.
const PROBE_PATIENCE: Duration = Duration::from_secs(5);

impl SystemDialogs {
    /// Starts finding out (on a thread) when `choice` is [`FileDialogChoice::Auto`].
    pub fn new(choice: FileDialogChoice) -> Self {
        let mut dialogs = SystemDialogs {
            choice,
            answer: None,
            pending: None,
        };
        if choice == FileDialogChoice::Auto {
            let (send, receive) = mpsc::channel();
            let spawned = std::thread::Builder::new()
                .name("file dialog probe".into())
                .spawn(move || {
                    let _ = send.send(probe());
                });
            match spawned {
                Ok(_) => dialogs.pending = Some(receive),
                Err(e) => dialogs.answer = Some(Err(format!("cannot start the probe: {e}"))),
            }
        }
        dialogs
    }

    /// As if the probe had found no system dialog, for `why` (tests, tools).
    pub fn unavailable(why: &str) -> Self {
        SystemDialogs {
            choice: FileDialogChoice::Auto,
            answer: Some(Err(why.into())),
            pending: None,
        }
    }

    /// Which dialog should answer the next request.
    pub fn route(&mut self) -> Route {
        match self.choice {
            FileDialogChoice::System => return Route::System,
            FileDialogChoice::BuiltIn => return Route::BuiltIn { why: None },
            FileDialogChoice::Auto => {}
        }
        if self.answer.is_none()
            && let Some(receive) = self.pending.take()
        {
            self.answer = Some(receive.recv_timeout(PROBE_PATIENCE).unwrap_or_else(|_| {
                Err(format!(
                    "the desktop portal did not answer within {} s",
                    PROBE_PATIENCE.as_secs()
                ))
            }));
        }
        match &self.answer {
            Some(Err(why)) => Route::BuiltIn {
                why: Some(why.clone()),
            },
            _ => Route::System,
        }
    }
}

/// Whether rfd can open a dialog here: `Err` says why not.
#[cfg(all(unix, not(target_os = "macos")))]
fn probe() -> Result<(), String> {
    // rfd tries the portal first, then zenity: either is enough.
    if find_in_path("zenity").is_some() {
        return Ok(());
    }
    let portal = if library_present("libdbus-1.so.3") {
        portal_file_chooser()
    } else {
        Err(("no libdbus-1", String::new()))
    };
    match portal {
        Ok(()) => {
            log::info!("file dialogs: the desktop portal's file chooser");
            Ok(())
        }
        Err((short, detail)) => {
            log::warn!("file dialogs: no system file dialog: {short}, no zenity {detail}");
            Err(format!("{short}, no zenity"))
        }
    }
}

/// macOS and Windows always have their own.
#[cfg(not(all(unix, not(target_os = "macos"))))]
fn probe() -> Result<(), String> {
    Ok(())
}

/// Asks the session bus for the portal's FileChooser interface (starting the portal if it
/// is activatable), as rfd will when it opens a dialog. `Err`: what is missing, in a few
/// words for the status line, and the details for the log.
#[cfg(all(unix, not(target_os = "macos")))]
fn portal_file_chooser() -> Result<(), (&'static str, String)> {
    pollster::block_on(async {
        let bus = zbus::Connection::session()
            .await
            .map_err(|e| ("no D-Bus session bus", format!("({e})")))?;
        let reply = bus
            .call_method(
                Some("org.freedesktop.portal.Desktop"),
                "/org/freedesktop/portal/desktop",
                Some("org.freedesktop.DBus.Properties"),
                "Get",
                &("org.freedesktop.portal.FileChooser", "version"),
            )
            .await
            .map_err(|e| ("no desktop portal file chooser", format!("({e})")))?;
        let version: zbus::zvariant::OwnedValue = reply
            .body()
            .deserialize()
            .map_err(|e| ("no desktop portal file chooser", format!("({e})")))?;
        log::debug!("portal FileChooser version {version:?}");
        Ok(())
    })
}

/// The first executable file named `name` in the `PATH`.
#[cfg(unix)]
fn find_in_path(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// Whether the dynamic loader can find a shared library (rfd loads libdbus at run time):
/// `LD_LIBRARY_PATH`, the loader's cache, then the usual folders.
#[cfg(all(unix, not(target_os = "macos")))]
fn library_present(name: &str) -> bool {
    let in_cache = std::fs::read("/etc/ld.so.cache")
        .is_ok_and(|cache| cache.windows(name.len()).any(|w| w == name.as_bytes()));
    let dirs = std::env::var_os("LD_LIBRARY_PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    let usual = [
        "/lib",
        "/usr/lib",
        "/lib64",
        "/usr/lib64",
        "/usr/local/lib",
        "/lib/x86_64-linux-gnu",
        "/usr/lib/x86_64-linux-gnu",
        "/lib/aarch64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
    ];
    in_cache
        || dirs
            .iter()
            .map(PathBuf::as_path)
            .chain(usual.iter().map(Path::new))
            .any(|d| d.join(name).exists())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_reads_the_usual_spellings() {
        assert_eq!(
            FileDialogChoice::parse("builtin"),
            Some(FileDialogChoice::BuiltIn)
        );
        assert_eq!(
            FileDialogChoice::parse(" Built-In "),
            Some(FileDialogChoice::BuiltIn)
        );
        assert_eq!(
            FileDialogChoice::parse("system"),
            Some(FileDialogChoice::System)
        );
        assert_eq!(FileDialogChoice::parse(""), Some(FileDialogChoice::Auto));
        assert_eq!(FileDialogChoice::parse("gtk"), None);
    }

    #[test]
    fn a_forced_choice_asks_nothing() {
        assert_eq!(
            SystemDialogs::new(FileDialogChoice::BuiltIn).route(),
            Route::BuiltIn { why: None }
        );
        assert_eq!(
            SystemDialogs::new(FileDialogChoice::System).route(),
            Route::System
        );
    }

    #[test]
    fn filters_match_extensions_in_any_case() {
        let f = FileFilter::new("rig", &["glb", "gltf"]);
        assert!(f.matches("fox.GLB"));
        assert!(f.matches("a.b.gltf"));
        assert!(!f.matches("glb"));
        assert!(!f.matches("fox.glb.json"));
        assert!(FileFilter::new("all", &["*"]).matches("anything"));
    }

    #[test]
    fn purposes_turn_into_their_commands() {
        let p = PathBuf::from("/x/y.json");
        assert_eq!(
            PathPurpose::SaveProject { then_close: true }.commands(p.clone()),
            [Command::SaveProjectTo(p.clone()), Command::Quit]
        );
        assert_eq!(
            PathPurpose::SaveCreature(2).commands(p.clone()),
            [Command::SaveCreatureTo {
                creature: 2,
                path: p
            }]
        );
    }

    /// Where there is no session bus, the probe says so (and does not hang).
    #[cfg(all(unix, not(target_os = "macos")))]
    #[test]
    fn without_a_session_bus_the_portal_is_reported_missing() {
        let runtime_bus =
            std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).join("bus").exists());
        let any_user_bus = std::fs::read_dir("/run/user")
            .is_ok_and(|users| users.flatten().any(|u| u.path().join("bus").exists()));
        if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some() || runtime_bus || any_user_bus {
            return; // a desktop: nothing to learn here
        }
        let (e, _) = portal_file_chooser().unwrap_err();
        assert_eq!(e, "no D-Bus session bus");
    }
}
