//! A session file's `tools` entries checked and made into tools.

use super::*;

/// The checked parts of a `tools` entry.
pub(super) struct ScriptedParts {
    pub(super) info: ToolInfo,
}

pub(super) fn parts_of(
    name: &str,
    spec: &ToolFile,
    err: &dyn Fn(&[&str], String) -> SessionError,
) -> Result<ScriptedParts, SessionError> {
    if let Some(why) = bad_name(name) {
        return Err(err(&["tools", name], format!("the tool name {why}")));
    }
    let signature = match &spec.signature {
        Some(text) => Signature::parse(text).map_err(|e| {
            err(
                &["tools", name, "signature"],
                format!("bad signature {:?}: {e}", crate::value::describe_text(text)),
            )
        })?,
        None => Signature::any(),
    };
    let info = ToolInfo {
        name: name.to_string(),
        signature,
        description: spec.description.clone().filter(|d| !d.is_empty()),
        doc: None,
        acts: spec.acts(),
    };
    Ok(ScriptedParts { info })
}

pub(super) fn tool_of(
    name: &str,
    spec: &ToolFile,
    dir: &Path,
    lenient: bool,
    err: &dyn Fn(&[&str], String) -> SessionError,
) -> Result<Box<dyn Tool>, SessionError> {
    let ScriptedParts { info } = parts_of(name, spec, err)?;
    // An MCP server's tool whose server the file does not configure (its
    // "mcp" key removed, or a file from elsewhere) is recorded-only too:
    // it has no live implementation until one is attached (MCP-9).
    let unserved_mcp = spec.mcp.is_some()
        && spec.command.is_none()
        && spec.returns.is_none()
        && spec.responses.is_empty();
    if spec.recorded_only || unserved_mcp {
        if spec.command.is_some() || spec.returns.is_some() || !spec.responses.is_empty() {
            return Err(err(
                &["tools", name, "recorded_only"],
                "a recorded-only tool has no \"command\", \"returns\" or \"responses\"; drop \"recorded_only\" to give it one".into(),
            ));
        }
        return Ok(Box::new(RecordedOnlyTool::new(info, spec.clone())));
    }
    let dir = &match &spec.cwd {
        Some(cwd) => dir.join(cwd),
        None => dir.to_path_buf(),
    };
    let mut responses = Vec::new();
    for (i, r) in spec.responses.iter().enumerate() {
        let index = format!("[{i}]");
        let path = ["tools", name, "responses", index.as_str()];
        let answer = match (&r.returns, &r.error) {
            (Some(_), Some(_)) => {
                return Err(err(
                    &path,
                    "a response has either \"returns\" or \"error\", not both".into(),
                ))
            }
            (_, Some(e)) => Err(e.clone()),
            (Some(v), None) => Ok(from_json(v)),
            (None, None) => Ok(Value::Nil),
        };
        responses.push(Response {
            args: r.args.iter().map(from_json).collect(),
            answer,
        });
    }
    let command = match &spec.command {
        None => None,
        Some(argv) => {
            let path = ["tools", name, "command"];
            let Some(program) = argv.first() else {
                return Err(err(
                    &path,
                    "the command is empty; write [\"program\", \"arg\", ...]".into(),
                ));
            };
            let dir_buf = dir.to_path_buf();
            if !lenient && !program_exists(program, Some(&dir_buf)) {
                return Err(err(
                    &path,
                    format!(
                        "program {program:?} not found (relative paths are resolved against {}; bare names are looked up on PATH)",
                        dir.display()
                    ),
                ));
            }
            for arg in &argv[1..] {
                let p = Path::new(arg);
                let is_script = p
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| SCRIPT_EXTENSIONS.contains(&e));
                if !lenient && is_script && !arg.starts_with('-') && !dir.join(p).is_file() {
                    return Err(err(
                        &path,
                        format!("script {arg:?} not found (relative to {})", dir.display()),
                    ));
                }
            }
            Some(CommandTool::new(info.clone(), argv.clone()).current_dir(dir))
        }
    };
    let returns = spec.returns.as_ref().map(from_json).unwrap_or(Value::Nil);
    Ok(Box::new(ScriptedTool::from_parts(
        info,
        responses,
        command,
        returns,
        spec.clone(),
    )))
}
