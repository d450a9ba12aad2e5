//! The model flags shared by `ptc agent` and `ptc eval`, turned into a
//! provider client.

use std::path::Path;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::input_error;
use crate::agent::http::{ClientConfig, HttpLlm, Provider, RetryPolicy};
use crate::agent::{session_from_file, Overrides};
use crate::session::{Session, SessionFile, View};

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum ProviderArg {
    /// OpenAI-compatible Chat Completions (OpenAI, OpenRouter, vLLM,
    /// llama.cpp, Ollama, LM Studio).
    #[default]
    Openai,
    /// Anthropic Messages.
    Anthropic,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ViewArg {
    Compressed,
    Uncompressed,
}

impl ViewArg {
    pub fn view(self) -> View {
        match self {
            ViewArg::Compressed => View::Compressed,
            ViewArg::Uncompressed => View::Uncompressed,
        }
    }
}

#[derive(Args, Debug)]
pub struct LlmArgs {
    /// The model name, as the provider knows it.
    #[arg(long)]
    pub model: String,
    #[arg(long, value_enum, default_value_t = ProviderArg::Openai)]
    pub provider: ProviderArg,
    /// The API's base URL (default: https://api.openai.com/v1 or
    /// https://api.anthropic.com).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The environment variable holding the API key (default
    /// OPENAI_API_KEY or ANTHROPIC_API_KEY).
    #[arg(long, value_name = "NAME")]
    pub api_key_env: Option<String>,
    #[arg(long)]
    pub temperature: Option<f64>,
    /// Completion tokens per response.
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<u64>,
    /// Seconds to connect to the provider.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub connect_timeout: f64,
    /// Seconds for one whole LLM request.
    #[arg(long, value_name = "SECS", default_value_t = 300.0)]
    pub llm_timeout: f64,
    /// Retries of a request on 429, 5xx, dropped connections, timeouts.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub retries: u32,
    /// The wait before the first retry, doubled for each next one (with
    /// jitter; at least the provider's Retry-After).
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub retry_delay_ms: u64,
    /// Retry timeouts against a local server (loopback or private address)
    /// too; by default they are not, since the server keeps computing the
    /// request the client gave up on.
    #[arg(long)]
    pub retry_local_timeouts: bool,
}

impl LlmArgs {
    /// The client, or the exit code after reporting why not (2).
    pub fn client(&self) -> Result<HttpLlm, i32> {
        let provider = match self.provider {
            ProviderArg::Openai => Provider::OpenAi,
            ProviderArg::Anthropic => Provider::Anthropic,
        };
        let mut config = ClientConfig::new(provider, self.model.clone());
        if let Some(url) = &self.base_url {
            config.base_url = url.clone();
        }
        if let Some(env) = &self.api_key_env {
            config.api_key_env = env.clone();
        }
        config.temperature = self.temperature;
        config.max_tokens = self.max_tokens;
        config.connect_timeout = seconds(self.connect_timeout, "--connect-timeout")?;
        config.request_timeout = seconds(self.llm_timeout, "--llm-timeout")?;
        config.retry = RetryPolicy {
            max_retries: self.retries,
            base_delay: Duration::from_millis(self.retry_delay_ms),
            retry_local_timeouts: self.retry_local_timeouts,
            ..RetryPolicy::default()
        };
        HttpLlm::new(config).map_err(|e| input_error(e.message))
    }
}

fn seconds(s: f64, flag: &str) -> Result<Duration, i32> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            input_error(format!(
                "{flag} expects a positive number of seconds, got {s}"
            ))
        })
}

/// Reads a session file and builds its session with `overrides`, its own
/// turns run; the exit code after reporting a problem (2).
pub fn open_for_agent(path: &Path, overrides: &Overrides) -> Result<(SessionFile, Session), i32> {
    let text = super::input::read_json_file(path, "the session file").map_err(input_error)?;
    let file = SessionFile::parse(&text, path).map_err(input_error)?;
    let session = session_from_file(path, Some(&text), &file, overrides).map_err(input_error)?;
    Ok((file, session))
}
