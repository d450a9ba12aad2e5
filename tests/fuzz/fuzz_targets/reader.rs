//! Fuzz the reader: any bytes read to forms or to a typed parse error (never
//! a panic, never a stack overflow), and every error has a span.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ptc_lisp::reader::{form_to_value, read_all};
use ptc_lisp::ErrorKind;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    match read_all(src) {
        Ok(forms) => {
            for f in &forms {
                let _ = form_to_value(f);
            }
        }
        Err(e) => {
            assert_ne!(e.kind(), ErrorKind::Internal, "{}", e.message());
            assert!(e.span().is_some(), "parse error without span: {}", e.message());
        }
    }
});
