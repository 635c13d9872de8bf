//! A plain scalar's value per the YAML 1.2 core schema (null, booleans, integers in decimal,
//! `0x` and `0o`, floats); values JSON cannot hold (`.inf`, `.nan`) are refused. Quoted and
//! block scalars never come here: they are strings.

use serde_json::{Number, Value};

/// The value of a plain scalar, or why it has none.
pub(crate) fn plain(text: &str) -> Result<Value, String> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" => return Ok(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Ok(Value::Bool(false)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "-.inf" | ".nan" | ".NaN" | ".NAN" => {
            return Err(format!(
                "`{text}` has no JSON form: quote it if you mean the text"
            ));
        }
        _ => {}
    }
    if let Some(n) = integer(text) {
        return Ok(Value::Number(n));
    }
    if is_float(text)
        && let Some(n) = text.parse::<f64>().ok().and_then(Number::from_f64)
    {
        return Ok(Value::Number(n));
    }
    Ok(Value::String(text.to_string()))
}

fn integer(text: &str) -> Option<Number> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    let negative = text.starts_with('-');
    let (radix, body) = if let Some(hex) = text.strip_prefix("0x") {
        (16, hex)
    } else if let Some(oct) = text.strip_prefix("0o") {
        (8, oct)
    } else {
        (10, digits)
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    if radix != 10 {
        return u64::from_str_radix(body, radix).ok().map(Number::from);
    }
    if negative {
        text.parse::<i64>().ok().map(Number::from)
    } else {
        digits.parse::<u64>().ok().map(Number::from)
    }
}

fn is_float(text: &str) -> bool {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    let mantissa_ok = digits(int) && digits(frac) && !(int.is_empty() && frac.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok && (mantissa.contains('.') || exponent.is_some())
}
