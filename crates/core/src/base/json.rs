//! The little JSON the simulation shows: request and response bodies, the records a server
//! stores in Redis or in the SQL table. Compact, keys in sorted order: byte for byte what
//! `serde_json` writes for the same object (tests compare them), written by hand so the
//! page's bundle carries no JSON serializer (serde_json's `Value`, its formatter and its error
//! texts weighed far more in the wasm than a dozen small objects need).

use std::fmt::Display;

/// A JSON object being written. Keys must be added in sorted order (as `serde_json`'s
/// ordered map writes them); debug builds check it.
pub(crate) struct Object {
    out: String,
    last: &'static str,
}

impl Default for Object {
    fn default() -> Self {
        Object::new()
    }
}

impl Object {
    /// An empty object.
    pub(crate) fn new() -> Self {
        Object {
            out: String::from("{"),
            last: "",
        }
    }

    fn key(mut self, key: &'static str) -> Self {
        debug_assert!(
            self.last < key || self.out.len() == 1,
            "JSON keys out of order: {} before {key}",
            self.last
        );
        if self.out.len() > 1 {
            self.out.push(',');
        }
        self.last = key;
        push_string(&mut self.out, key);
        self.out.push(':');
        self
    }

    /// `"key": number` (integers only: the simulation has no fractions).
    pub(crate) fn num(self, key: &'static str, value: impl Display) -> Self {
        let mut this = self.key(key);
        this.out.push_str(&value.to_string());
        this
    }

    /// `"key": "text"`, escaped.
    pub(crate) fn str(self, key: &'static str, value: &str) -> Self {
        let mut this = self.key(key);
        push_string(&mut this.out, value);
        this
    }

    /// `"key": "text"`, or `null` for `None`.
    pub(crate) fn opt_str(self, key: &'static str, value: Option<&str>) -> Self {
        match value {
            Some(text) => self.str(key, text),
            None => self.raw(key, "null"),
        }
    }

    /// `"key": json` where `json` is already JSON text (a nested object).
    pub(crate) fn raw(self, key: &'static str, json: &str) -> Self {
        let mut this = self.key(key);
        this.out.push_str(json);
        this
    }

    /// The object's text.
    pub(crate) fn end(mut self) -> String {
        self.out.push('}');
        self.out
    }
}

/// Appends `text` as a JSON string literal, escaped as serde_json escapes it (also the
/// lesson's event payloads, `idem_lesson::stream::Json`).
pub fn push_string(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => {
                let b = u32::from(c) as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX[b >> 4]));
                out.push(char::from(HEX[b & 0xf]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_object_is_what_serde_json_writes() {
        let odd = "quote\" slash\\ nl\n cr\r tab\t bs\u{8} ff\u{c} bell\u{7} é ключ";
        let written = Object::new()
            .num("a", -20_i64)
            .opt_str("b", None)
            .raw("c", &Object::new().num("x", u64::MAX).end())
            .str("d", odd)
            .opt_str("e", Some(""))
            .end();
        let expected = json!({ "a": -20, "b": null, "c": { "x": u64::MAX }, "d": odd, "e": "" });
        assert_eq!(written, expected.to_string());
        assert_eq!(Object::new().end(), json!({}).to_string());
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "out of order")]
    fn keys_out_of_order_are_caught() {
        let _ = Object::new().num("b", 1).num("a", 2).end();
    }
}
