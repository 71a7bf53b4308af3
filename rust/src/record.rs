//! What every versioned JSON record shares: strict parsing (exact field types, no unknown
//! fields where the record type denies them) and the check of its format and version. Each
//! variant wraps the reason in its own error.

/// Parses JSON text into a record type.
pub fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// Refuses a record of another format, or of a version this build does not read.
pub fn check_header(
    format: &str,
    version: u32,
    expected: &str,
    supported: u32,
) -> Result<(), String> {
    if format != expected {
        return Err(format!("format is {format:?}, expected {expected:?}"));
    }
    if version != supported {
        return Err(format!(
            "version {version} is not supported (this build reads version {supported})"
        ));
    }
    Ok(())
}
