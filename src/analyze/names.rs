//! Errors about names, with the hints an LLM needs to fix them: "did you
//! mean" over every visible name (plausible ones only: [`super::suggest`]), names from other
//! languages (`upcase`, `len`), data referenced without `data/`, and the
//! forms the sandbox forbids (`eval`, `atom`, `slurp` …).

use super::suggest::{suggest, Candidate};
use crate::builtins::{self, Ns};
use crate::error::{Error, Result, Span, MUTABLE_STATE_HINT};
use crate::eval::{Globals, Host};

/// Names LLMs borrow from other languages or libraries, with the ptc name.
const ALIASES: &[(&str, &str)] = &[
    ("upcase", "upper-case"),
    ("downcase", "lower-case"),
    ("uppercase", "upper-case"),
    ("lowercase", "lower-case"),
    ("to-upper", "upper-case"),
    ("to-lower", "lower-case"),
    ("len", "count"),
    ("length", "count"),
    ("size", "count"),
    ("strlen", "count"),
    ("foreach", "doseq"),
    ("for-each", "doseq"),
    ("each", "doseq"),
    ("print-line", "println"),
    ("puts", "println"),
    ("null", "nil"),
    ("None", "nil"),
    ("True", "true"),
    ("False", "false"),
    ("elif", "cond"),
    ("lambda", "fn"),
    ("average", "avg or avg-by"),
    ("mean", "avg or avg-by"),
    ("sort-on", "sort-by"),
    ("filter-by", "filter"),
    ("uniq", "distinct"),
    ("unique", "distinct"),
    ("head", "first"),
    ("tail", "rest"),
    ("append", "conj"),
    ("push", "conj"),
    ("concat-str", "str"),
    ("string-join", "clojure.string/join"),
    ("substring", "subs"),
    ("substr", "subs"),
    ("contains", "contains? or clojure.string/includes?"),
    ("includes", "clojure.string/includes?"),
    ("starts-with", "clojure.string/starts-with?"),
    ("ends-with", "clojure.string/ends-with?"),
    ("hash", "hash-map"),
    ("dict", "hash-map"),
    ("lookup", "get"),
    ("fetch", "get"),
    ("zip", "(map vector xs ys)"),
    (
        "sqrt",
        "(Math/sqrt x) is not available; use (pow x 0.5) if available or compute with *",
    ),
];

/// The error for a symbol that names nothing.
pub fn undefined_symbol(name: &str, globals: &Globals, host: &dyn Host) -> Error {
    let shown = crate::value::describe_text(name);
    let err = Error::undefined(format!("undefined symbol '{shown}'"));
    match hint_for(name, globals, host) {
        Some(h) => err.with_hint(h),
        None => err,
    }
}

fn hint_for(name: &str, globals: &Globals, host: &dyn Host) -> Option<String> {
    if let Some((_, to)) = ALIASES.iter().find(|(from, _)| *from == name) {
        return Some(format!("did you mean {to}?"));
    }
    let data: Vec<String> = host
        .data_names()
        .iter()
        .map(|d| format!("data/{d}"))
        .collect();
    let tools: Vec<String> = host
        .tool_names()
        .iter()
        .map(|t| format!("tool/{t}"))
        .collect();
    let user: Vec<&str> = globals.iter().map(|(n, _)| &**n).collect();
    // A bare name is first looked for in user/ and clojure.core.
    let candidates = user
        .iter()
        .map(|n| Candidate { name: n, tier: 0 })
        .chain(builtins::all().iter().map(|b| Candidate {
            name: b.name,
            tier: u8::from(b.ns != Ns::Core),
        }))
        .chain(
            data.iter()
                .chain(&tools)
                .map(|n| Candidate { name: n, tier: 1 }),
        );
    let best = suggest(name, candidates)?;
    if best.starts_with("data/") {
        return Some(format!(
            "did you mean {best}? data values are read as {best}"
        ));
    }
    Some(format!("did you mean {best}?"))
}

/// The error for `ns/name` where `ns` is a builtin namespace without that
/// function, with a plausible suggestion: the namespace's own names first.
pub fn unknown_in_namespace(written_ns: &str, ns: Ns, name: &str) -> Error {
    let err = Error::validation(format!(
        "{}/{name} is not a function ptc provides",
        ns.name()
    ));
    let candidates = builtins::all().iter().map(|b| Candidate {
        name: b.name,
        tier: u8::from(b.ns != ns),
    });
    match suggest(name, candidates) {
        Some(best) if builtins::lookup_in(ns, best).is_some() => {
            err.with_hint(format!("did you mean {written_ns}/{best}?"))
        }
        Some(best) => err.with_hint(format!("did you mean {best}?")),
        None => err,
    }
}

/// The Java statics [`java_static`] knows, by class (for the error of an
/// unknown one; a unit test keeps the list and the table in step).
pub const JAVA_STATICS: &[(&str, &[&str])] = &[
    (
        "Math",
        &[
            "PI",
            "E",
            "abs",
            "max",
            "min",
            "floor",
            "ceil",
            "round",
            "pow",
            "sqrt",
            "log",
            "log10",
            "exp",
            "hypot",
            "cbrt",
            "signum",
            "toRadians",
            "toDegrees",
            "sin",
            "cos",
            "tan",
            "atan",
            "atan2",
        ],
    ),
    (
        "Integer",
        &["MAX_VALUE", "MIN_VALUE", "parseInt", "toString", "valueOf"],
    ),
    (
        "Long",
        &["MAX_VALUE", "MIN_VALUE", "parseLong", "toString", "valueOf"],
    ),
    (
        "Double",
        &[
            "POSITIVE_INFINITY",
            "NEGATIVE_INFINITY",
            "NaN",
            "MAX_VALUE",
            "MIN_VALUE",
            "MIN_NORMAL",
            "parseDouble",
            "valueOf",
            "isNaN",
            "isInfinite",
        ],
    ),
    (
        "Character",
        &[
            "isLetter",
            "isDigit",
            "isWhitespace",
            "isUpperCase",
            "isLowerCase",
            "digit",
        ],
    ),
    ("Float", &["parseFloat"]),
    ("Boolean", &["parseBoolean"]),
    ("String", &["valueOf"]),
    ("System", &["currentTimeMillis"]),
    ("LocalDate", &["parse", "of"]),
    ("ChronoUnit", &["DAYS", "WEEKS"]),
];

/// Java classes models call statics of that ptc does not have (beyond
/// any `java.`/`javax.` name): `Class/member` on one is an
/// `undefined-error` listing the classes that ptc has, not an unknown
/// namespace.
const OTHER_JAVA_CLASSES: &[&str] = &[
    "Short",
    "Byte",
    "Number",
    "Object",
    "StrictMath",
    "BigDecimal",
    "BigInteger",
    "StringBuilder",
    "StringBuffer",
    "Thread",
    "Runtime",
    "Arrays",
    "Collections",
    "Objects",
    "Optional",
    "UUID",
    "Random",
    "ThreadLocalRandom",
    "TimeUnit",
    "Instant",
    "LocalDateTime",
    "LocalTime",
    "ZonedDateTime",
    "OffsetDateTime",
    "ZoneId",
    "ZoneOffset",
    "Duration",
    "Period",
    "DateTimeFormatter",
    "DayOfWeek",
    "Month",
    "Year",
    "YearMonth",
    "Date",
    "Calendar",
    "TimeZone",
    "Pattern",
    "Matcher",
    "Base64",
    "URLEncoder",
    "URLDecoder",
    "Locale",
    "Files",
    "Paths",
    "File",
];

/// `ns/name` that is neither a builtin namespace nor a Java static ptc
/// has. A static of a Java class ptc lacks (`BigDecimal/valueOf`,
/// `java.util.UUID/randomUUID`) is an `undefined-error` naming the classes
/// it has (language.md §Java interop: "a method or static outside it is an
/// `undefined-error` listing the supported ones"). A member outside the
/// list of a class ptc has (`Integer/foo`, `Math/cube`) names that class's
/// statics in its message, an `undefined-error` too (issue 58; the local
/// case i27-java-22 of issue 27.1, a `validation-error`, is a known
/// failure). `System/exit` stays the
/// `validation-error` of the sandbox's forbidden forms (public case
/// spec-13.1-unsupported-16); any other qualifier (`Unknown/CONSTANT`,
/// `foo/bar`) is an unknown namespace, a `validation-error` listing the
/// namespaces (public case up-memory_contract-08).
pub fn unknown_namespace(ns: &str, name: &str) -> Error {
    let full = format!("{ns}/{name}");
    let shown = crate::value::describe_text(&full);
    let class = ns.rsplit('.').next().unwrap_or(ns);
    if full == "System/exit" || full == "java.lang.System/exit" {
        return Error::validation(format!("unknown namespace {ns} in {full}")).with_hint(
            "programs cannot exit the process; end the mission with (return v) or (fail reason)",
        );
    }
    if let Some((_, members)) = JAVA_STATICS.iter().find(|(c, _)| *c == class) {
        return Error::undefined(format!(
            "{shown} is not supported: Java interop is limited; {class}/ has {}",
            members.join(" ")
        ))
        .with_hint("otherwise use the builtin functions");
    }
    let java_named = ["java.", "javax.", "clojure.lang."]
        .iter()
        .any(|p| ns.starts_with(p));
    if java_named || OTHER_JAVA_CLASSES.contains(&class) {
        return Error::undefined(format!(
            "{shown} is not supported: Java interop is limited to the statics of {}",
            java_classes()
        ))
        .with_hint("otherwise use the builtin functions; (doc name) shows what a builtin does");
    }
    Error::validation(format!("unknown namespace {ns} in {shown}")).with_hint(format!(
        "available namespaces: data/, tool/, user/, clojure.core, clojure.string (str/), clojure.set (set/), clojure.walk (walk/), clojure.data.json and cheshire.core (json/); Java statics of {}",
        java_classes()
    ))
}

/// The classes of [`JAVA_STATICS`]: `Math/ Integer/ …`.
fn java_classes() -> String {
    JAVA_STATICS
        .iter()
        .map(|(c, _)| format!("{c}/"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Forms the sandbox forbids (`language.md`: `atom`, `eval`, `ns`,
/// `require`, I/O, `System/exit` …): a `validation-error`.
const FORBIDDEN: &[(&str, &str)] = &[
    (
        "eval",
        "programs cannot evaluate code at run time; write the code directly",
    ),
    ("load", "programs cannot load code"),
    ("load-file", "programs cannot read files"),
    ("load-string", "programs cannot evaluate code at run time"),
    ("import", "Java interop is not available"),
    (
        "use",
        "clojure.string, clojure.set and clojure.walk are always available",
    ),
    ("in-ns", "there are no namespaces to switch to"),
    (
        "slurp",
        "programs cannot read files or URLs; inputs are in data/ and tools in tool/",
    ),
    (
        "spit",
        "programs cannot write files; return results with (return v)",
    ),
    ("atom", MUTABLE_STATE_HINT),
    ("swap!", MUTABLE_STATE_HINT),
    ("reset!", MUTABLE_STATE_HINT),
    ("deref", MUTABLE_STATE_HINT),
    ("volatile!", MUTABLE_STATE_HINT),
    ("vswap!", MUTABLE_STATE_HINT),
    ("vreset!", MUTABLE_STATE_HINT),
    ("ref", MUTABLE_STATE_HINT),
    ("ref-set", MUTABLE_STATE_HINT),
    ("alter", MUTABLE_STATE_HINT),
    ("dosync", MUTABLE_STATE_HINT),
    (
        "agent",
        "there is no concurrency; use pmap for parallel-looking work",
    ),
    ("future", "there is no concurrency; use pmap or pcalls"),
    ("promise", "there is no concurrency"),
    ("set!", MUTABLE_STATE_HINT),
    ("with-open", "programs cannot open files or connections"),
    ("sh", "programs cannot start processes"),
    (
        ".",
        "Java interop is not available; use the builtin functions",
    ),
];

/// Clojure features PTC-Lisp does not have: an `undefined-error` (they are
/// simply not defined) with a hint at what to use instead.
const UNSUPPORTED: &[(&str, &str)] = &[
    (
        "read-string",
        "to parse numbers use parse-long or parse-double",
    ),
    ("defmacro", "macros cannot be defined; use defn"),
    (
        "defprotocol",
        "protocols are not available; use maps and functions",
    ),
    ("defrecord", "records are not available; use maps"),
    ("deftype", "types are not available; use maps"),
    ("definterface", "interfaces are not available"),
    (
        "defmulti",
        "multimethods are not available; use cond or case on a dispatch value",
    ),
    (
        "defmethod",
        "multimethods are not available; use cond or case",
    ),
    ("reify", "Java interop is not available"),
    ("proxy", "Java interop is not available"),
    ("new", "Java interop is not available"),
    ("binding", "there are no dynamic vars; use let"),
    ("rand", "programs are deterministic: there is no randomness"),
    (
        "rand-int",
        "programs are deterministic: there is no randomness",
    ),
    (
        "rand-nth",
        "programs are deterministic: there is no randomness",
    ),
    (
        "shuffle",
        "programs are deterministic: there is no randomness",
    ),
];

/// The error for a form in call position that the sandbox forbids or that
/// PTC-Lisp does not have, if `name` is one.
pub fn check_forbidden(name: &str, span: Span) -> Result<()> {
    if let Some((_, hint)) = FORBIDDEN.iter().find(|(n, _)| *n == name) {
        return Err(
            Error::validation(format!("{name} is not available in PTC-Lisp"))
                .with_hint(*hint)
                .with_span(span),
        );
    }
    if let Some((_, hint)) = UNSUPPORTED.iter().find(|(n, _)| *n == name) {
        return Err(Error::undefined(format!("undefined symbol '{name}'"))
            .with_hint(format!("{name} is not supported in PTC-Lisp; {hint}"))
            .with_span(span));
    }
    let method = name.len() > 1 && name.starts_with('.') && !name.starts_with("..");
    let constructor = name.len() > 1 && name.ends_with('.') && name != "..";
    if (method || constructor) && builtins::lookup(name).is_none() {
        let shown = crate::value::describe_text(name);
        return Err(
            Error::undefined(format!("{shown} is not supported: Java interop is limited"))
                .with_hint(supported_interop_hint())
                .with_span(span),
        );
    }
    Ok(())
}

/// The hint listing every supported Java method and constructor (the
/// registry's names that start or end with `.`), and where statics are.
pub fn supported_interop_hint() -> String {
    let mut methods: Vec<&str> = builtins::all()
        .iter()
        .map(|b| b.name)
        .filter(|n| n.len() > 1 && n.starts_with('.'))
        .collect();
    methods.sort_unstable();
    let ctors: Vec<&str> = builtins::all()
        .iter()
        .map(|b| b.name)
        .filter(|n| n.len() > 1 && n.ends_with('.'))
        .collect();
    format!(
        "supported methods: {}; constructors: {}; statics such as Math/log, Integer/parseInt, Double/isNaN, LocalDate/parse, ChronoUnit/DAYS; otherwise use the builtin functions",
        methods.join(" "),
        ctors.join(" ")
    )
}

/// Java static members that mean a builtin or a constant.
pub fn java_static(full: &str) -> Option<JavaStatic> {
    use JavaStatic::*;
    // `java.lang.Math/PI` is `Math/PI`: java.lang's classes need no import.
    let full = full.strip_prefix("java.lang.").unwrap_or(full);
    Some(match full {
        "Double/POSITIVE_INFINITY" => Const(f64::INFINITY.into()),
        "Double/NEGATIVE_INFINITY" => Const(f64::NEG_INFINITY.into()),
        "Double/NaN" => Const(f64::NAN.into()),
        "Double/MAX_VALUE" => Const(f64::MAX.into()),
        "Double/MIN_VALUE" => Const(f64::from_bits(1).into()),
        "Double/MIN_NORMAL" => Const(f64::MIN_POSITIVE.into()),
        "Long/MAX_VALUE" => Const(i64::MAX.into()),
        "Long/MIN_VALUE" => Const(i64::MIN.into()),
        "Integer/MAX_VALUE" => Const(i64::from(i32::MAX).into()),
        "Integer/MIN_VALUE" => Const(i64::from(i32::MIN).into()),
        "Math/PI" => Const(std::f64::consts::PI.into()),
        "Math/E" => Const(std::f64::consts::E.into()),
        "Math/abs" => Builtin("abs"),
        "Math/max" => Builtin("max"),
        "Math/min" => Builtin("min"),
        "Math/floor" => Builtin("Math/floor"),
        "Math/ceil" => Builtin("Math/ceil"),
        "Math/round" => Builtin("Math/round"),
        "Math/pow" => Builtin("pow"),
        "Math/sqrt" => Builtin("sqrt"),
        "Integer/parseInt" => Builtin("Integer/parseInt"),
        "Long/parseLong" => Builtin("Long/parseLong"),
        "Double/parseDouble" => Builtin("Double/parseDouble"),
        "Float/parseFloat" => Builtin("Float/parseFloat"),
        "Character/isLetter" => Builtin("Character/isLetter"),
        "Character/isDigit" => Builtin("Character/isDigit"),
        "Character/isWhitespace" => Builtin("Character/isWhitespace"),
        "Character/isUpperCase" => Builtin("Character/isUpperCase"),
        "Character/isLowerCase" => Builtin("Character/isLowerCase"),
        "Character/digit" => Builtin("Character/digit"),
        "Boolean/parseBoolean" => Builtin("Boolean/parseBoolean"),
        "String/valueOf" => Builtin("str"),
        "System/currentTimeMillis" => Builtin("current-time-millis"),
        "LocalDate/parse" | "java.time.LocalDate/parse" => Builtin("local-date-parse"),
        "LocalDate/of" | "java.time.LocalDate/of" => Builtin("LocalDate/of"),
        "ChronoUnit/DAYS" | "java.time.temporal.ChronoUnit/DAYS" => {
            Const(crate::value::Value::string("DAYS"))
        }
        "ChronoUnit/WEEKS" | "java.time.temporal.ChronoUnit/WEEKS" => {
            Const(crate::value::Value::string("WEEKS"))
        }
        "Integer/toString" | "Long/toString" => Builtin("Integer/toString"),
        "Integer/valueOf" => Builtin("Integer/valueOf"),
        "Long/valueOf" => Builtin("Long/valueOf"),
        "Double/valueOf" => Builtin("Double/valueOf"),
        "Double/isNaN" => Builtin("Double/isNaN"),
        "Double/isInfinite" => Builtin("Double/isInfinite"),
        "Math/log" => Builtin("Math/log"),
        "Math/log10" => Builtin("Math/log10"),
        "Math/exp" => Builtin("Math/exp"),
        "Math/hypot" => Builtin("Math/hypot"),
        "Math/cbrt" => Builtin("Math/cbrt"),
        "Math/signum" => Builtin("Math/signum"),
        "Math/toRadians" => Builtin("Math/toRadians"),
        "Math/toDegrees" => Builtin("Math/toDegrees"),
        "Math/sin" => Builtin("Math/sin"),
        "Math/cos" => Builtin("Math/cos"),
        "Math/tan" => Builtin("Math/tan"),
        "Math/atan" => Builtin("Math/atan"),
        "Math/atan2" => Builtin("Math/atan2"),
        _ => return None,
    })
}

/// What a Java static member resolves to.
pub enum JavaStatic {
    Const(crate::value::Value),
    /// A clojure.core builtin, by name.
    Builtin(&'static str),
}

#[cfg(test)]
mod tests {
    use super::super::suggest::closest;

    #[test]
    fn every_listed_java_static_resolves() {
        for (class, members) in super::JAVA_STATICS {
            for m in *members {
                assert!(
                    super::java_static(&format!("{class}/{m}")).is_some(),
                    "{class}/{m}"
                );
            }
        }
    }

    #[test]
    fn unknown_statics_name_what_there_is() {
        use crate::error::ErrorKind;
        // A class ptc has: its statics, in the message.
        let e = super::unknown_namespace("Integer", "foo");
        assert_eq!(e.kind(), ErrorKind::Undefined);
        assert!(e.message().contains("Integer/ has MAX_VALUE"), "{e:?}");
        assert!(e.message().contains("parseInt"), "{e:?}");
        let e = super::unknown_namespace("java.lang.Math", "cube");
        assert!(e.message().contains("Math/ has PI E abs"), "{e:?}");
        // A Java class ptc lacks: an undefined-error naming the classes.
        for (ns, name) in [("BigDecimal", "valueOf"), ("java.util.UUID", "randomUUID")] {
            let e = super::unknown_namespace(ns, name);
            assert_eq!(e.kind(), ErrorKind::Undefined, "{ns}/{name}");
            assert!(e.message().contains("Math/ Integer/ Long/"), "{e:?}");
        }
        // System/exit and other qualifiers: validation-errors.
        let e = super::unknown_namespace("System", "exit");
        assert_eq!(e.kind(), ErrorKind::Validation);
        assert!(e.hint().unwrap_or("").contains("(return v)"), "{e:?}");
        let e = super::unknown_namespace("Unknown", "CONSTANT");
        assert_eq!(e.kind(), ErrorKind::Validation);
        assert!(e.message().contains("unknown namespace Unknown"), "{e:?}");
    }

    #[test]
    fn java_lang_names_resolve_as_simple_ones() {
        assert!(super::java_static("java.lang.Math/pow").is_some());
        assert!(super::java_static("java.lang.Long/MAX_VALUE").is_some());
        assert!(super::java_static("java.lang.Math/cube").is_none());
    }

    #[test]
    fn closest_prefers_near_names() {
        let names = ["filter", "first", "data/products"];
        assert_eq!(closest("filtr", names.into_iter()), Some("filter"));
        assert_eq!(
            closest("products", names.into_iter()),
            Some("data/products")
        );
        assert_eq!(closest("zzzzzz", names.into_iter()), None);
    }
}
