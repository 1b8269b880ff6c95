use super::*;
use wasm_encoder::{
    CodeSection, CustomSection, EntityType, ExportKind, Function, FunctionSection, Instruction,
    MemoryType, TypeSection, ValType,
};

const GLUE: &str = "./idem-web_bg.js";

/// A module shaped as wasm-bindgen writes one: two imports from the glue and a memory from
/// elsewhere, three functions, exports of a class's methods and others, a custom section.
fn module() -> Vec<u8> {
    let mut module = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([ValType::I32], []);
    types.ty().function([], [ValType::I32]);
    module.section(&types);
    let mut imports = ImportSection::new();
    imports.import(GLUE, "__wbg_log_0123456789abcdef", EntityType::Function(0));
    imports.import(
        "env",
        "memory",
        MemoryType {
            minimum: 1,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        },
    );
    imports.import(GLUE, "__wbg_now_fedcba9876543210", EntityType::Function(1));
    module.section(&imports);
    let mut functions = FunctionSection::new();
    functions.function(0).function(1).function(1);
    module.section(&functions);
    let mut exports = ExportSection::new();
    exports.export("__wbg_source_free", ExportKind::Func, 2);
    exports.export("start", ExportKind::Func, 3);
    exports.export("source_pull", ExportKind::Func, 4);
    exports.export("memory", ExportKind::Memory, 0);
    module.section(&exports);
    let mut code = CodeSection::new();
    let mut free = Function::new([]);
    free.instructions().local_get(0).call(0).end();
    code.function(&free);
    for value in [7, 9] {
        let mut body = Function::new([]);
        body.instruction(&Instruction::I32Const(value))
            .instruction(&Instruction::End);
        code.function(&body);
    }
    module.section(&code);
    module.section(&CustomSection {
        name: "producers".into(),
        data: b"kept as it is".into(),
    });
    module.finish()
}

/// Each section of `wasm` as (id, its bytes), in order.
fn sections(wasm: &[u8]) -> Vec<(u8, Vec<u8>)> {
    Parser::new(0)
        .parse_all(wasm)
        .filter_map(|payload| payload.unwrap().as_section())
        .map(|(id, range)| (id, wasm[range.start as usize..range.end as usize].to_vec()))
        .collect()
}

#[test]
fn dropping_no_export_writes_the_same_bytes() {
    let wasm = module();
    assert_eq!(drop_exports(&wasm, &[]).unwrap(), wasm);
}

#[test]
fn drops_the_named_exports_and_keeps_the_rest_in_order() {
    let wasm = module();
    let out = drop_exports(&wasm, &["source_pull", "__wbg_source_free"]).unwrap();
    assert_eq!(exports(&out).unwrap(), ["start", "memory"]);
    // Every other section is the same bytes: function indices did not move.
    let (before, after) = (sections(&wasm), sections(&out));
    assert_eq!(before.len(), after.len());
    for ((id, bytes), (id2, bytes2)) in before.iter().zip(&after) {
        assert_eq!(id, id2);
        if *id != 7 {
            assert_eq!(bytes, bytes2, "section {id} changed");
        }
    }
    assert!(out.len() < wasm.len());
}

#[test]
fn dropping_an_export_the_module_lacks_fails() {
    let wasm = module();
    assert_eq!(
        drop_exports(&wasm, &["start", "sink_write"]),
        Err(Error::NotExported("sink_write".into()))
    );
}

#[test]
fn renames_the_glues_imports_and_names_the_pairs() {
    let wasm = module();
    let renamed = short_imports(&wasm, GLUE, "a").unwrap();
    assert_eq!(
        renamed.names,
        [
            ("__wbg_log_0123456789abcdef".to_owned(), "a".to_owned()),
            ("__wbg_now_fedcba9876543210".to_owned(), "b".to_owned()),
        ]
    );
    let pair = |m: &str, n: &str| (m.to_owned(), n.to_owned());
    assert_eq!(
        imports(&renamed.wasm).unwrap(),
        [pair("a", "a"), pair("env", "memory"), pair("a", "b")]
    );
    // The imports keep their types: the first still takes an i32 (type 0), the other returns one.
    let mut types = Vec::new();
    for payload in Parser::new(0).parse_all(&renamed.wasm) {
        if let Payload::ImportSection(reader) = payload.unwrap() {
            for import in reader.into_imports() {
                types.push(import.unwrap().ty);
            }
        }
    }
    assert_eq!(types[0], wasmparser::TypeRef::Func(0));
    assert_eq!(types[2], wasmparser::TypeRef::Func(1));
    assert!(matches!(types[1], wasmparser::TypeRef::Memory(_)));
    for ((id, bytes), (id2, bytes2)) in sections(&wasm).iter().zip(&sections(&renamed.wasm)) {
        assert_eq!(id, id2);
        if *id != 2 {
            assert_eq!(bytes, bytes2, "section {id} changed");
        }
    }
}

#[test]
fn a_module_importing_nothing_from_the_glue_fails() {
    let wasm = module();
    assert_eq!(
        short_imports(&wasm, "./other_bg.js", "a"),
        Err(Error::NothingImported("./other_bg.js".into()))
    );
}

#[test]
fn the_same_import_twice_fails() {
    let mut module = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([], []);
    module.section(&types);
    let mut imports = ImportSection::new();
    imports.import(GLUE, "f", EntityType::Function(0));
    imports.import(GLUE, "f", EntityType::Function(0));
    module.section(&imports);
    assert_eq!(
        short_imports(&module.finish(), GLUE, "a"),
        Err(Error::ImportedTwice("f".into()))
    );
}

#[test]
fn short_names_count_in_letters() {
    let names: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702]
        .into_iter()
        .map(short_name)
        .collect();
    assert_eq!(names, ["a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"]);
}

#[test]
fn bytes_that_are_no_module_fail() {
    assert!(matches!(
        drop_exports(b"not wasm at all", &[]),
        Err(Error::Parse(_))
    ));
    let mut truncated = module();
    truncated.truncate(truncated.len() - 3);
    assert!(matches!(
        short_imports(&truncated, GLUE, "a"),
        Err(Error::Parse(_))
    ));
}
