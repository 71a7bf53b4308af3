//! What every versioned JSON record shares: strict parsing (exact field types, no unknown
//! fields where the record type denies them) and the check of its format and version. Each
//! variant wraps the reason in its own error.

/// Parses JSON text into a record type; the error in words ([`json_error`]).
pub fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| json_error(text, &e))
}

/// What is wrong with the JSON `text` of a record, for a person: the field it is in, what
/// was expected in words, what was found, and neither the parser's position in the text
/// nor Rust's type names (`u8`, `u64`) or number kinds ("floating point").
pub fn json_error(text: &str, error: &serde_json::Error) -> String {
    let full = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    let message = full
        .strip_suffix(&position)
        .unwrap_or(&full)
        .replace('`', "\"");
    let Some((found, expected)) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|rest| rest.split_once(", expected "))
    else {
        return message;
    };
    let field = field_before(text, error.line(), error.column())
        .map_or_else(String::new, |name| format!("{name}: "));
    format!(
        "{field}expected {}, got {}",
        in_words(expected),
        found_in_words(found)
    )
}

/// Serde's names of what a record field holds, in words.
fn in_words(expected: &str) -> String {
    let words = match expected {
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" | "usize" => "a whole number from 0 to 2**64 - 1",
        "i64" => "a whole number",
        "a sequence" => "a list",
        "a map" => "an object",
        "a boolean" => "true or false",
        other if other.starts_with("struct ") => "an object",
        other => other,
    };
    words.to_string()
}

/// Serde's description of a value found, in words: `floating point "1e+30"` is `1e30, a
/// number too large` when it is whole, else `1.5, not a whole number`.
fn found_in_words(found: &str) -> String {
    let quoted = |kind: &str| {
        found
            .strip_prefix(kind)
            .map(|v| v.trim_matches('"').to_string())
    };
    if let Some(number) = quoted("floating point ") {
        let value: f64 = number.parse().unwrap_or(f64::NAN);
        return if value.fract() == 0.0 {
            format!("{value:e}, a number too large")
        } else {
            format!("{number}, not a whole number")
        };
    }
    if let Some(number) = quoted("integer ") {
        return number;
    }
    if let Some(flag) = quoted("boolean ") {
        return flag;
    }
    match found {
        "sequence" => "a list".into(),
        "map" => "an object".into(),
        "unit value" => "null".into(),
        _ => found.replacen("string ", "the text ", 1),
    }
}

/// The name of the field whose value ends at `line`, `column` (1-based) of `text`: the
/// last `"name":` before it.
fn field_before(text: &str, line: usize, column: usize) -> Option<&str> {
    let row = text.lines().nth(line.checked_sub(1)?)?;
    let upto = row.get(..column.min(row.len()))?;
    let end = upto.rfind("\":")?;
    let start = upto[..end].rfind('"')? + 1;
    Some(&upto[start..end])
}

/// The `format` a record's JSON text names, read leniently (any other field ignored), or
/// `None` when it names none: a record of another kind is then refused for its format, not
/// for a field its own kind lacks.
pub fn named_format(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Named {
        format: String,
    }
    serde_json::from_str::<Named>(text).ok().map(|n| n.format)
}

/// Refuses, before the record is parsed strictly, JSON `text` that names a format other
/// than `expected`.
pub fn check_named_format(text: &str, expected: &str) -> Result<(), String> {
    match named_format(text) {
        Some(format) if format != expected => {
            Err(format!("format is {format:?}, expected {expected:?}"))
        }
        _ => Ok(()),
    }
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
