//! The model flags shared by `ptc agent` and `ptc eval`, turned into a
//! provider client.

use std::path::Path;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::input_error;
use crate::agent::http::{ClientConfig, HttpLlm, Provider, RetryPolicy};
use crate::agent::{session_from_file, Overrides, Prices};
use crate::session::{Protocol, Session, SessionFile, View};

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

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    /// The program in a ```clojure block of the reply.
    Text,
    /// The program as the argument of a run_ptc_lisp tool call.
    Tool,
}

impl ProtocolArg {
    pub fn protocol(self) -> Protocol {
        match self {
            ProtocolArg::Text => Protocol::Text,
            ProtocolArg::Tool => Protocol::Tool,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnOff {
    On,
    Off,
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
    /// How the model hands over its program (default: the session file's
    /// "protocol", else text).
    #[arg(long, value_enum)]
    pub protocol: Option<ProtocolArg>,
    /// Anthropic prompt caching of the SYSTEM prompt and tool declaration
    /// (cache_control).
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    pub prompt_cache: OnOff,
    /// US dollars per million uncached input tokens (with --price-out:
    /// cost per turn and run).
    #[arg(long, value_name = "USD")]
    pub price_in: Option<f64>,
    /// US dollars per million output tokens.
    #[arg(long, value_name = "USD")]
    pub price_out: Option<f64>,
    /// US dollars per million cached input tokens (default: --price-in).
    #[arg(long, value_name = "USD")]
    pub price_cached: Option<f64>,
    /// A JSON file of prices by model name: {"MODEL": {"input": USD,
    /// "output": USD, "cached_input"?: USD, "cache_write"?: USD}} (per
    /// million tokens); --price-* flags win.
    #[arg(long, value_name = "FILE")]
    pub prices: Option<std::path::PathBuf>,
}

impl LlmArgs {
    /// The client for sessions of `protocol`, or the exit code after
    /// reporting why not (2).
    pub fn client(&self, protocol: Protocol) -> Result<HttpLlm, i32> {
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
        config.protocol = protocol;
        config.prompt_cache = self.prompt_cache == OnOff::On;
        config.prices = self.prices()?;
        HttpLlm::new(config).map_err(|e| input_error(e.message))
    }

    /// The prices of `--model`: the `--prices` file's entry, with the
    /// `--price-*` flags over it; `None` when neither gives input and
    /// output prices.
    pub fn prices(&self) -> Result<Option<Prices>, i32> {
        let mut prices = match &self.prices {
            None => None,
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    input_error(format!(
                        "{}: cannot read the prices file: {e}",
                        path.display()
                    ))
                })?;
                let table: std::collections::BTreeMap<String, Prices> =
                    serde_json::from_str(&text).map_err(|e| {
                        input_error(format!(
                            "{}: not a prices table {{\"MODEL\": {{\"input\": USD, \"output\": USD, \"cached_input\"?: USD, \"cache_write\"?: USD}}}}: {e}",
                            path.display()
                        ))
                    })?;
                table.get(&self.model).cloned()
            }
        };
        match (self.price_in, self.price_out, &mut prices) {
            (Some(input), Some(output), None) => {
                prices = Some(Prices {
                    input,
                    output,
                    ..Prices::default()
                })
            }
            (None, None, None) => {}
            (_, _, None) => {
                return Err(input_error(
                    "--price-in and --price-out go together (or give --prices FILE with an entry for the model)",
                ))
            }
            (i, o, Some(p)) => {
                p.input = i.unwrap_or(p.input);
                p.output = o.unwrap_or(p.output);
            }
        }
        if let Some(p) = &mut prices {
            if self.price_cached.is_some() {
                p.cached_input = self.price_cached;
            }
            p.check().map_err(input_error)?;
        } else if self.price_cached.is_some() {
            return Err(input_error(
                "--price-cached needs --price-in and --price-out",
            ));
        }
        Ok(prices)
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
