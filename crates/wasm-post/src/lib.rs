//! The release build's two edits of the first-screen wasm module (`scripts/split.sh`, what each
//! saves: `docs/build.md`), made on the module's structure by `wasmparser` and `wasm-encoder`
//! rather than on bytes found by hand:
//!
//! - [`drop_exports`]: removes exports by name (those of the JS classes no lesson uses, which
//!   `scripts/drop-classes.mjs` reads off the glue's code), so that `wasm-opt` then removes
//!   the code only they reached;
//! - [`short_imports`]: renames every import from the glue's module to `a`, `b`, …, and the
//!   module to a short name, returning the pairs for the glue's import object.
//!
//! Every other section is copied as it was, byte for byte; function indices do not move. Each
//! edit fails, writing nothing, when the module is not what it expects (an export missing or
//! exported twice, no import from the module named), so a toolchain upgrade that changes the
//! module stops the build instead of shipping a page that cannot start.

use std::fmt;

use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{ExportSection, ImportSection, Module, RawSection};
use wasmparser::{Encoding, Parser, Payload};

/// Why an edit could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The bytes are not a wasm module `wasmparser` reads (the message is its own).
    Parse(String),
    /// The bytes are a component, or a module of another version than 1.
    NotACoreModule,
    /// An export to drop is not among the module's exports.
    NotExported(String),
    /// A name is exported twice (a module `wasmparser` reads but no engine would compile).
    ExportedTwice(String),
    /// The module imports nothing from the module named.
    NothingImported(String),
    /// The same name is imported twice from the module named.
    ImportedTwice(String),
    /// An import or export could not be written back (the message is `wasm-encoder`'s).
    Encode(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(message) => write!(f, "not a wasm module wasmparser reads: {message}"),
            Error::NotACoreModule => write!(f, "not a core wasm module of version 1"),
            Error::NotExported(name) => write!(f, "the module exports no {name}"),
            Error::ExportedTwice(name) => write!(f, "the module exports {name} twice"),
            Error::NothingImported(module) => write!(f, "the module imports nothing from {module}"),
            Error::ImportedTwice(name) => write!(f, "the module imports {name} twice"),
            Error::Encode(message) => write!(f, "wasm-encoder could not write it back: {message}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<wasmparser::BinaryReaderError> for Error {
    fn from(error: wasmparser::BinaryReaderError) -> Self {
        Error::Parse(error.to_string())
    }
}

impl<E: fmt::Display> From<wasm_encoder::reencode::Error<E>> for Error {
    fn from(error: wasm_encoder::reencode::Error<E>) -> Self {
        Error::Encode(error.to_string())
    }
}

/// `wasm` without the exports named in `names`. Fails unless each name is exported exactly once.
pub fn drop_exports(wasm: &[u8], names: &[&str]) -> Result<Vec<u8>, Error> {
    let mut found = vec![0_usize; names.len()];
    let out = rewrite(wasm, |payload, module| {
        let Payload::ExportSection(reader) = payload else {
            return Ok(false);
        };
        let mut exports = ExportSection::new();
        for export in reader.clone() {
            let export = export?;
            match names.iter().position(|name| *name == export.name) {
                Some(at) => found[at] += 1,
                None => RoundtripReencoder.parse_export(&mut exports, export)?,
            }
        }
        module.section(&exports);
        Ok(true)
    })?;
    for (name, count) in names.iter().zip(found) {
        match count {
            0 => return Err(Error::NotExported((*name).to_owned())),
            1 => {}
            _ => return Err(Error::ExportedTwice((*name).to_owned())),
        }
    }
    Ok(out)
}

/// The `n`-th short name: `a`, `b`, …, `z`, `aa`, `ab`, … (valid JS property names, none a
/// reserved word: the glue's import object uses them as keys).
pub fn short_name(n: usize) -> String {
    let mut out = Vec::new();
    let mut n = n + 1;
    while n > 0 {
        out.push(b'a' + ((n - 1) % 26) as u8);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII letters")
}

/// What [`short_imports`] did: the module's new bytes and each renamed import, in the order of
/// the import section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renamed {
    /// The module with its imports renamed.
    pub wasm: Vec<u8>,
    /// `(long name, short name)` of each import from the module named.
    pub names: Vec<(String, String)>,
}

/// `wasm` with every import from `from` imported from `to` under the name [`short_name`] gives
/// its position among them. Imports from other modules keep their names. Fails when nothing is
/// imported from `from` or a name is imported from it twice.
pub fn short_imports(wasm: &[u8], from: &str, to: &str) -> Result<Renamed, Error> {
    let mut names: Vec<(String, String)> = Vec::new();
    let out = rewrite(wasm, |payload, module| {
        let Payload::ImportSection(reader) = payload else {
            return Ok(false);
        };
        let mut imports = ImportSection::new();
        for import in reader.clone().into_imports() {
            let import = import?;
            let ty = RoundtripReencoder.entity_type(import.ty)?;
            if import.module != from {
                imports.import(import.module, import.name, ty);
                continue;
            }
            if names.iter().any(|(long, _)| long == import.name) {
                return Err(Error::ImportedTwice(import.name.to_owned()));
            }
            let short = short_name(names.len());
            imports.import(to, &short, ty);
            names.push((import.name.to_owned(), short));
        }
        module.section(&imports);
        Ok(true)
    })?;
    if names.is_empty() {
        return Err(Error::NothingImported(from.to_owned()));
    }
    Ok(Renamed { wasm: out, names })
}

/// The `(module, name)` of each of `wasm`'s imports, in order.
pub fn imports(wasm: &[u8]) -> Result<Vec<(String, String)>, Error> {
    let mut out = Vec::new();
    rewrite(wasm, |payload, _| {
        if let Payload::ImportSection(reader) = payload {
            for import in reader.clone().into_imports() {
                let import = import?;
                out.push((import.module.to_owned(), import.name.to_owned()));
            }
        }
        Ok(false)
    })?;
    Ok(out)
}

/// The names of `wasm`'s exports, in order.
pub fn exports(wasm: &[u8]) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    rewrite(wasm, |payload, _| {
        if let Payload::ExportSection(reader) = payload {
            for export in reader.clone() {
                out.push(export?.name.to_owned());
            }
        }
        Ok(false)
    })?;
    Ok(out)
}

/// Writes `wasm` again section by section: `edit` writes a section of its own into the module
/// and returns `true`, or returns `false` and the section is copied as it was.
fn rewrite(
    wasm: &[u8],
    mut edit: impl FnMut(&Payload<'_>, &mut Module) -> Result<bool, Error>,
) -> Result<Vec<u8>, Error> {
    let mut module = Module::new();
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload?;
        if let Payload::Version { num, encoding, .. } = payload {
            if encoding != Encoding::Module || num != 1 {
                return Err(Error::NotACoreModule);
            }
        }
        let Some((id, range)) = payload.as_section() else {
            continue;
        };
        if !edit(&payload, &mut module)? {
            let range = usize::try_from(range.start).map_err(|e| Error::Parse(e.to_string()))?
                ..usize::try_from(range.end).map_err(|e| Error::Parse(e.to_string()))?;
            module.section(&RawSection {
                id,
                data: &wasm[range],
            });
        }
    }
    Ok(module.finish())
}

#[cfg(test)]
mod tests;
