//! How a usage error reads at every door that parses a command line (`pith`, and `pith index`
//! and `pith serve`, which another program runs): one `pith: …` line, as every other error,
//! then the usage line and where to read more; and which errors end a command quietly (a reader
//! that closed the pipe).

use super::one_line;

/// Whether an error comes from a closed standard output or error (a reader such as `head`
/// that stopped reading): a command ends quietly then, with success, as other Unix filters
/// do, since the reader asked for no more.
pub fn broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    std::iter::successors(Some(e), |c| c.source()).any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// A usage error as pith's other errors: one `pith: …` line (clap's message and its tips),
/// then the usage line and where to read more, from clap's rendered text (`error: …`,
/// `  tip: …`, `Usage: …`, `For more information, try '--help'.`).
pub fn usage_error(rendered: &str) -> String {
    let mut message = Vec::new();
    let mut usage = None;
    for line in rendered.lines().map(str::trim) {
        if let Some(m) = line.strip_prefix("error: ") {
            message.push(m.to_owned());
        } else if let Some(u) = line.strip_prefix("Usage: ") {
            usage.get_or_insert(u.to_owned());
        } else if line.starts_with("tip: to pass '") && line.contains("as a value, use '--") {
            // clap's tip for an option it does not know: pith takes no value starting with
            // `-` after `--`, so it would only mislead; the usage line says where to read more.
        } else if !line.is_empty() && usage.is_none() {
            message.push(line.to_owned());
        }
    }
    // Lines after a colon are its list (the missing arguments); other lines are tips.
    let mut text = String::new();
    for m in message {
        if !text.is_empty() {
            text.push_str(if text.ends_with(':') { " " } else { "; " });
        }
        text.push_str(&m);
    }
    let mut out = format!("pith: {}\n", one_line(&text));
    if let Some(u) = usage {
        // The command the usage is of: its words before the first option or argument.
        let command: Vec<&str> = u
            .split_whitespace()
            .take_while(|w| !w.starts_with(['[', '<', '-']))
            .collect();
        out.push_str(&format!(
            "Usage: {u} (more: {} --help)\n",
            command.join(" ")
        ));
    }
    out
}

/// Whether a command line asks for JSON (`--json` before any `--`): its usage errors are then
/// also printed as the `{"error": …, "kind": "request"}` object every other error is, at every
/// door that parses a command line.
pub fn asks_json<I, S>(args: I) -> bool
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    args.into_iter()
        .map(|a| a.as_ref().to_owned())
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// What a program prints for a usage error of its command line `args`: the `{error, kind}`
/// object on standard output when the line asks for JSON ([`asks_json`], [`usage_json`]),
/// and [`usage_error`]'s lines on standard error.
pub fn usage_outputs<I, S>(rendered: &str, args: I) -> (Option<String>, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let text = usage_error(rendered);
    (asks_json(args).then(|| usage_json(&text)), text)
}

/// Prints a usage error of this program's own command line from clap's rendered text, as
/// [`usage_outputs`] says, and gives the exit status of a usage error, 2.
pub fn print_usage_error(rendered: &str) -> u8 {
    use std::io::Write;
    let (json, text) = usage_outputs(rendered, std::env::args_os());
    if let Some(j) = json {
        let _ = writeln!(std::io::stdout(), "{j}");
    }
    let _ = write!(std::io::stderr(), "{text}");
    2
}

/// The JSON object of a usage error ([`usage_error`]'s text): its sentence, kind `request`.
pub fn usage_json(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    let line = line.strip_prefix("pith: ").unwrap_or(line);
    let v = serde_json::json!({ "error": line, "kind": super::ErrorCode::Request });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_is_asked_before_the_end_of_options() {
        assert!(super::asks_json(["pith", "batch", "--json"]));
        assert!(!super::asks_json(["pith", "number", "--", "--json"]));
        let v: serde_json::Value =
            serde_json::from_str(&super::usage_json("pith: bad\nUsage: pith x\n")).unwrap();
        assert_eq!(v, serde_json::json!({"error": "bad", "kind": "request"}));
    }

    #[test]
    fn usage_errors_are_one_line_and_the_usage() {
        let rendered = "error: unexpected argument '--bogus' found\n\n  tip: to pass '--bogus' as a value, use '-- --bogus'\n\nUsage: pith number [OPTIONS] [ARXIV_ID]...\n\nFor more information, try '--help'.\n";
        assert_eq!(
            super::usage_error(rendered),
            "pith: unexpected argument '--bogus' found\nUsage: pith number [OPTIONS] [ARXIV_ID]... (more: pith number --help)\n"
        );
    }
}
