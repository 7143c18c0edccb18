//! `--password` / `--password-file`: the user or owner password of an encrypted
//! PDF whose user password is not empty. Files that open without a password need neither.

use std::path::PathBuf;

use anyhow::{Context, Result};
use pith::job::given::Text;

/// The password options shared by `inject`, `inspect`, `strip` and `verify`.
#[derive(Debug, Default, clap::Args)]
pub struct Password {
    /// The user or owner password of an encrypted PDF that does not open without one
    /// (other users can see it in the process list; prefer --password-file).
    #[arg(long, value_name = "PASSWORD")]
    pub password: Option<String>,
    /// Read that password from the first line of FILE.
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
}

impl Password {
    /// The password bytes, if one was given: UTF-8 as typed (PDF 2.0 passwords are UTF-8;
    /// older revisions compare bytes, so ASCII passwords work everywhere).
    pub fn bytes(&self) -> Result<Option<Vec<u8>>> {
        let given = pith::job::given::text(
            self.password.clone(),
            self.password_file.clone(),
            "password",
        )?;
        let f = match given {
            None => return Ok(None),
            Some(Text::Value(p)) => return Ok(Some(p.into_bytes())),
            Some(Text::File(f)) => f,
        };
        // A password file holds one line: a few KiB is far more than any real one.
        let text = pith::bounded::read_file(&f, 64 << 10)
            .with_context(|| format!("{}: cannot read the password", f.display()))?;
        let line = text.split(|&b| b == b'\n').next().unwrap_or(&[]);
        Ok(Some(line.strip_suffix(b"\r").unwrap_or(line).to_vec()))
    }
}
