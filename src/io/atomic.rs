//! Atomic saves: a crash or a full disk mid-save never leaves a half-written file.

use super::SaveError;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk, renames it over
/// `path` and syncs the directory, so readers see either the old file or the new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    let err = |source| SaveError {
        path: path.display().to_string(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(err)?;
    tmp.write_all(bytes).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    tmp.persist(path).map_err(|e| err(e.error))?;
    // The rename is durable only once the directory entry is; not every platform lets a
    // directory be opened for syncing, and the data is already safe, so this is best effort.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_the_file() {
        let e = write_atomic(Path::new("/nonexistent-dir/x/a.json"), b"x").unwrap_err();
        assert!(e.to_string().contains("/nonexistent-dir/x/a.json"), "{e}");
    }
}
