//! Atomic saves: a crash or a full disk mid-save never leaves a half-written file.
//!
//! A save writes a temporary file beside its target, named `.<target>.anymorph-tmp-XXXXXX`
//! so that anyone listing the folder can tell whose it is, then renames it over the target.
//! The replaced file's permission mode is kept (a new file gets the usual `0666 & !umask`).
//! A temporary file outlives its save only when the process was killed mid-write; the next
//! save into the same folder removes such leftovers once they are [`STALE_AFTER`] old.

use super::SaveError;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What every temporary file of ours has in its name, after `.<target name>`.
pub const TEMP_MARK: &str = ".anymorph-tmp-";

/// How old a temporary file of ours must be before a save into its folder removes it: far
/// longer than any save takes, so a save running in another editor is never disturbed.
pub const STALE_AFTER: Duration = Duration::from_secs(5 * 60);

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk, renames it over
/// `path` and syncs the directory, so readers see either the old file or the new one.
/// On any error the temporary file is removed and `path` is untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    let err = |source| SaveError {
        path: path.display().to_string(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    remove_stale_temps(dir);
    let prefix = temp_prefix(path);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).rand_bytes(6);
    #[cfg(unix)]
    {
        // tempfile's own default is 0600; a saved file should be as readable as any other
        // the user creates (the kernel applies the umask).
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    // Dropping `tmp` on an early return deletes the temporary file.
    let mut tmp = builder.tempfile_in(dir).map_err(err)?;
    if let Ok(old) = std::fs::metadata(path) {
        keep_owner_and_mode(tmp.as_file(), &old).map_err(err)?;
    }
    tmp.write_all(bytes).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    // A failed rename hands the file back inside the error, which deletes it when dropped.
    tmp.persist(path).map_err(|e| err(e.error))?;
    // The rename is durable only once the directory entry is; not every platform lets a
    // directory be opened for syncing, and the data is already safe, so this is best effort.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// `.<file name>.anymorph-tmp-`: how the temporary files of a save to `path` begin.
fn temp_prefix(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy());
    format!(".{name}{TEMP_MARK}")
}

/// Like [`write_atomic`], but leaves `path` alone (its inode and modification time) when it
/// already holds exactly `bytes`. Returns whether it wrote.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool, SaveError> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomic(path, bytes).map(|()| true)
}

/// The replaced file's permission mode (and, where allowed, its owner and group) on the
/// file that replaces it.
fn keep_owner_and_mode(file: &std::fs::File, old: &std::fs::Metadata) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let current = file.metadata()?;
        if (current.uid(), current.gid()) != (old.uid(), old.gid()) {
            // Only root may give a file away; anyone may keep their own group. Best effort:
            // the mode below still applies.
            let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
        }
    }
    file.set_permissions(old.permissions())
}

/// Removes temporary files of ours in `dir` older than [`STALE_AFTER`]: what a save killed
/// mid-write left behind. Returns what it removed.
pub fn remove_stale_temps(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        if !is_temp_name(&name.to_string_lossy()) {
            continue;
        }
        let old_enough = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= STALE_AFTER);
        let path = entry.path();
        if old_enough && entry.file_type().is_ok_and(|t| t.is_file()) {
            match std::fs::remove_file(&path) {
                Ok(()) => {
                    log::info!("removed {}, left by an interrupted save", path.display());
                    removed.push(path);
                }
                Err(e) => log::warn!("{}: cannot remove: {e}", path.display()),
            }
        }
    }
    removed
}

/// Whether a file name is one [`write_atomic`] gives its temporary files.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.')
        && name.rsplit_once(TEMP_MARK).is_some_and(|(target, random)| {
            target.len() > 1
                && random.len() == 6
                && random.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(names(dir.path()), ["a.json"]);
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_the_file() {
        let e = write_atomic(Path::new("/nonexistent-dir/x/a.json"), b"x").unwrap_err();
        assert!(e.to_string().contains("/nonexistent-dir/x/a.json"), "{e}");
    }

    #[test]
    fn a_failed_save_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // A folder where the file should go: the final rename fails.
        let path = dir.path().join("taken");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("inside"), "x").unwrap();
        let e = write_atomic(&path, b"data").unwrap_err();
        assert!(e.to_string().contains("taken"), "{e}");
        assert_eq!(names(dir.path()), ["taken"]);
    }

    #[cfg(unix)]
    #[test]
    fn the_replaced_files_mode_is_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        for mode in [0o644, 0o600, 0o640, 0o664] {
            let path = dir.path().join(format!("{mode:o}.json"));
            std::fs::write(&path, "old").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            write_atomic(&path, b"new").unwrap();
            let got = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(got, mode, "{mode:o} became {got:o}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_gets_the_mode_any_new_file_gets() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        // What the umask makes of 0666, learnt the way every program creates a file.
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "x").unwrap();
        let expected = std::fs::metadata(&plain).unwrap().permissions().mode() & 0o777;
        let path = dir.path().join("new.json");
        write_atomic(&path, b"x").unwrap();
        let got = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(got, expected, "{got:o} is not {expected:o}");
        assert_ne!(got, 0o600, "the temporary file's mode leaked out");
    }

    #[test]
    fn an_unchanged_file_is_not_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        assert!(write_if_changed(&path, b"one").unwrap());
        let before = std::fs::metadata(&path).unwrap();
        assert!(!write_if_changed(&path, b"one").unwrap());
        let after = std::fs::metadata(&path).unwrap();
        assert_eq!(before.modified().unwrap(), after.modified().unwrap());
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            assert_eq!(before.ino(), after.ino());
        }
        assert!(write_if_changed(&path, b"two").unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
    }

    #[test]
    fn stale_temporaries_of_ours_are_removed_by_the_next_save_there() {
        let dir = tempfile::tempdir().unwrap();
        let old = std::time::SystemTime::now() - STALE_AFTER - Duration::from_secs(60);
        let make = |name: &str, modified| {
            let path = dir.path().join(name);
            std::fs::write(&path, "partial").unwrap();
            let f = std::fs::File::options().write(true).open(&path).unwrap();
            f.set_modified(modified).unwrap();
        };
        make(".walk.clip.json.anymorph-tmp-a1B2c3", old);
        // Someone else's, or a save running right now: left alone.
        make(".tmpAbC123", old);
        make(".x.json.anymorph-tmp-Zz9Zz9", std::time::SystemTime::now());
        make("notes.anymorph-tmp-a1B2c3", old);
        write_atomic(&dir.path().join("walk.clip.json"), b"{}").unwrap();
        assert_eq!(
            names(dir.path()),
            [
                ".tmpAbC123",
                ".x.json.anymorph-tmp-Zz9Zz9",
                "notes.anymorph-tmp-a1B2c3",
                "walk.clip.json"
            ]
        );
    }

    #[test]
    fn temporary_names_say_whose_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("walk.clip.json");
        let mut builder = tempfile::Builder::new();
        let prefix = temp_prefix(&path);
        let tmp = builder
            .prefix(&prefix)
            .rand_bytes(6)
            .tempfile_in(dir.path())
            .unwrap();
        let name = tmp
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(is_temp_name(&name), "{name}");
        assert!(!is_temp_name(".tmpAbC123"));
        assert!(!is_temp_name(".anymorph-tmp-abcdef"));
        assert!(!is_temp_name("walk.clip.json"));
        drop(tmp);
        write_atomic(&path, b"x").unwrap();
    }
}
