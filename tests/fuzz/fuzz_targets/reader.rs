//! Fuzz the reader (through `read_value`, the public entry): any bytes read
//! to a value or to a typed error (never a panic, never a stack overflow),
//! and every error has a span.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ptc_lisp::ErrorKind;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    // The whole text is read (every form), then one form converts to data.
    match ptc_lisp::read_value(src) {
        Ok(_) => {}
        Err(e) => {
            assert_ne!(e.kind(), ErrorKind::Internal, "{}", e.message());
            assert!(e.span().is_some(), "parse error without span: {}", e.message());
        }
    }
});
