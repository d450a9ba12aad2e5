//! Classes 1 and 7 of issue 17: multi-byte text never panics (a malformed
//! date is a `type-error` naming the text, issue 27 item 9), and errors anywhere in a source up to the
//! source limit show with exact line and column.

use super::{expect_any, finishes, interp};
use ptc_lisp::ErrorKind;

#[test]
fn multi_byte_text_never_panics_and_malformed_dates_are_type_errors() {
    finishes(|| {
        for date in [
            "2026-01-08T14:30:00.12é",
            "2026-01-08T14:30:00.é",
            "2026-01-08T14:30:00+1é2",
            "2026-01-08T14:30:00+é:12",
            "2026-01-08T1é:30",
            "Wed, 8 Jan 2026 14:30:00.1日本",
            "8 Jan 99999999999999999 10:00",
            "2026-01-08T9999999999999999:00",
        ] {
            expect_any(&[ErrorKind::Type], &format!("(java.util.Date. {date:?})"));
        }
        expect_any(&[ErrorKind::Type], "(LocalDate/parse \"2026-01-é\")");
        // Strings are cut at characters, never inside one.
        let cases = [
            ("(subs \"héllo\" 1 2)", "\"é\""),
            ("(subs \"日本語\" 2)", "\"語\""),
            ("(format \"%.1s|%-3s|\" \"日本\" \"é\")", "\"日|é  |\""),
            ("(clojure.string/join \"é\" [\"日\" \"本\"])", "\"日é本\""),
            (
                "(pr-str (clojure.string/reverse \"日本é\"))",
                "\"\\\"é本日\\\"\"",
            ),
        ];
        for (src, want) in cases {
            let v = interp().run_program(src).result.expect(src);
            assert_eq!(v.to_string(), want, "{src}");
        }
    });
}

/// Shows an error the way `ptc run` does (miette's graphical report).
/// The error `src` ends in (under a generous timeout: a 1 MiB program
/// must reach its error even in a loaded debug build) and how it shows.
fn shown(src: &str) -> (ptc_lisp::Error, String) {
    let limits = ptc_lisp::Limits {
        timeout_ms: Some(60_000),
        ..ptc_lisp::Limits::default()
    };
    let mut i = ptc_lisp::Interp::new(Box::<ptc_lisp::StaticHost>::default(), limits);
    let e = i.run_program(src).result.expect_err(src);
    let text = format!("{:?}", e.diagnostic());
    (e, text)
}

#[test]
fn errors_past_column_65535_show_with_exact_positions() {
    finishes(|| {
        for pad in [65_536, 70_000, 200_000] {
            let src = format!("{}(+ 1 :a)", " ".repeat(pad));
            let (e, text) = shown(&src);
            assert_eq!(e.line_col(), Some((1, pad + 1)));
            assert!(text.contains("(+ 1 :a)"), "{text}");
            assert!(text.len() < 2_000, "{} bytes shown", text.len());
        }
        // Multi-byte characters count as one column each.
        let src = format!(";{}\n\"{}\" (+ 1 :a)", "x".repeat(10), "é".repeat(70_000));
        let (e, text) = shown(&src);
        assert_eq!(e.line_col(), Some((2, 70_004)));
        assert!(text.contains(" 2 │"), "{text}");
        // A parse error far out on a long line.
        let src = format!("[{})", " ".repeat(70_000));
        let (e, _) = shown(&src);
        assert_eq!(e.kind(), ErrorKind::Parse);
        assert_eq!(e.line_col(), Some((1, 70_002)));
    });
}

#[test]
fn errors_near_the_end_of_a_one_mebibyte_source_show() {
    finishes(|| {
        let lines = "(def a 1)\n".repeat(90_000);
        let src = format!("{lines}{}(+ 1 :a)", " ".repeat(70_000));
        assert!(src.len() < 1 << 20);
        let (e, text) = shown(&src);
        assert_eq!(e.line_col(), Some((90_001, 70_001)));
        assert!(text.contains("90001 │"), "{text}");
    });
}
