//! The provider clients over blocking HTTP (`ureq`, no async runtime):
//! [`HttpLlm`] speaks OpenAI-compatible Chat Completions (`openai.rs`) or
//! Anthropic Messages (`anthropic.rs`).
//!
//! Decisions: the API key is read from the environment variable the
//! config names when the client is made, kept only in memory, sent only in
//! the auth header, and replaced by `[redacted]` — with any piece of it of
//! 8 characters or more — in everything the provider sends back (the
//! body, so the response text, `model`, `usage` and error messages, and
//! headers quoted in errors), before anything is cut or stored
//! (`redact.rs`). Redirects are never followed: a 3xx answer is a
//! [`LlmErrorKind::Rejected`] error naming its `Location` (following it
//! would send the key, or a POST turned GET, to another host). Without
//! the variable set, requests go without a key (local servers such as
//! llama.cpp or Ollama need none) unless the base
//! URL is the provider's hosted one, which is a [`LlmErrorKind::Config`]
//! error naming the variable. Retried (with exponential backoff and
//! jitter, at most [`RetryPolicy::max_retries`] times): 408, 429, 5xx,
//! dropped or refused connections and timeouts — except a timeout against
//! a local server (loopback or private address, `retry::is_local_url`),
//! which keeps computing the abandoned request: that one fails at once
//! unless [`RetryPolicy::retry_local_timeouts`] is set; a `Retry-After` of
//! seconds is honoured (waited at least, up to [`MAX_RETRY_AFTER`]). The
//! attempts and waits of one completion share a time budget, the time
//! the attempts alone may take ((connect + request timeout) × attempts
//! allowed): a wait longer than what is left of it ends the completion
//! with the last error at once. Every other status fails at once with the
//! provider's own message.

mod anthropic;
mod openai;
mod redact;
mod retry;

use std::time::{Duration, Instant};

use serde_json::Value as Json;

use super::{wire, Llm, LlmError, LlmErrorKind, LlmResponse, Prices};
use crate::session::{Message, Protocol};

pub use retry::{is_local_url, RetryPolicy, MAX_RETRY_AFTER};

/// Which wire format a provider speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// `POST {base}/chat/completions`, `Authorization: Bearer KEY`.
    OpenAi,
    /// `POST {base}/v1/messages`, `x-api-key` and `anthropic-version`.
    Anthropic,
}

impl Provider {
    /// The provider's name on the command line (`--provider`).
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
        }
    }
    /// The provider's public API address, used when none is configured.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::OpenAi => "https://api.openai.com/v1",
            Provider::Anthropic => "https://api.anthropic.com",
        }
    }
    /// The environment variable the key is read from by default.
    pub fn default_key_env(self) -> &'static str {
        match self {
            Provider::OpenAi => "OPENAI_API_KEY",
            Provider::Anthropic => "ANTHROPIC_API_KEY",
        }
    }
}

/// Everything an [`HttpLlm`] needs but the key itself.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// Which wire format to speak.
    pub provider: Provider,
    /// Without a trailing slash: `http://127.0.0.1:8080/v1`.
    pub base_url: String,
    /// The model name sent with every request.
    pub model: String,
    /// The environment variable holding the API key.
    pub api_key_env: String,
    /// Sampling temperature; the provider's default when `None`.
    pub temperature: Option<f64>,
    /// Completion tokens per response (Anthropic requires one: 4096 when
    /// not given).
    pub max_tokens: Option<u64>,
    /// Time to open the connection.
    pub connect_timeout: Duration,
    /// The whole request, response body included.
    pub request_timeout: Duration,
    /// When and how often failed requests are retried.
    pub retry: RetryPolicy,
    /// How the model hands over its program: under [`Protocol::Tool`] every
    /// request declares the one program tool and requires its call.
    pub protocol: Protocol,
    /// Anthropic: mark the stable prefix (tool declaration and SYSTEM) for
    /// prompt caching (`cache_control`). On by default; OpenAI caches by
    /// itself and ignores it.
    pub prompt_cache: bool,
    /// Prices to put a cost on every response ([`LlmResponse::cost_usd`]).
    pub prices: Option<Prices>,
}

impl ClientConfig {
    /// The provider's defaults for `model`.
    pub fn new(provider: Provider, model: impl Into<String>) -> ClientConfig {
        ClientConfig {
            provider,
            base_url: provider.default_base_url().into(),
            model: model.into(),
            api_key_env: provider.default_key_env().into(),
            temperature: None,
            max_tokens: None,
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(300),
            retry: RetryPolicy::default(),
            protocol: Protocol::Text,
            prompt_cache: true,
            prices: None,
        }
    }

    /// The sampling settings sent with each request.
    pub fn sampling(&self) -> wire::Sampling {
        wire::Sampling {
            temperature: self.temperature,
            max_tokens: self.max_tokens,
        }
    }
}

/// A provider client. The key is never printed (`Debug` omits it).
pub struct HttpLlm {
    config: ClientConfig,
    key: Option<String>,
    redactor: redact::Redactor,
    agent: ureq::Agent,
}

impl std::fmt::Debug for HttpLlm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpLlm")
            .field("config", &self.config)
            .field("key", &self.key.as_ref().map(|_| "[redacted]"))
            .finish()
    }
}

impl HttpLlm {
    /// Reads the key from `config.api_key_env` and makes the client.
    pub fn new(config: ClientConfig) -> Result<HttpLlm, LlmError> {
        let key = std::env::var(&config.api_key_env)
            .ok()
            .filter(|k| !k.trim().is_empty())
            .map(|k| k.trim().to_string());
        let base = config.base_url.trim_end_matches('/');
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(LlmError::new(
                LlmErrorKind::Config,
                format!("the base URL {base:?} must start with http:// or https://"),
            ));
        }
        if key.is_none() && base == config.provider.default_base_url() {
            return Err(LlmError::new(
                LlmErrorKind::Config,
                format!(
                    "no API key: set the environment variable {} (or name another with --api-key-env)",
                    config.api_key_env
                ),
            ));
        }
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            // A 3xx comes back as it is (an error naming its Location).
            .max_redirects(0)
            .timeout_connect(Some(config.connect_timeout))
            .timeout_global(Some(config.request_timeout))
            .build()
            .new_agent();
        let redactor = redact::Redactor::new(key.as_deref());
        Ok(HttpLlm {
            config,
            key,
            redactor,
            agent,
        })
    }

    /// The configuration the client was built with.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// `text` with the key (and any piece of it of 8 characters or more)
    /// replaced by `[redacted]`.
    fn redact(&self, text: String) -> String {
        self.redactor.text(&text)
    }

    /// POSTs `body` with retries; the body of the 2xx answer.
    fn post(&self, url: &str, headers: &[(&str, String)], body: &Json) -> Result<String, LlmError> {
        let body = body.to_string();
        let policy = &self.config.retry;
        let budget = self
            .config
            .request_timeout
            .saturating_add(self.config.connect_timeout)
            .saturating_mul(policy.max_retries.saturating_add(1));
        let start = Instant::now();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (error, retry_after) = match self.post_once(url, headers, &body) {
                Ok(text) => return Ok(text),
                Err(e) => e,
            };
            let mut error = error;
            error.message = self.redact(error.message);
            error.attempts = attempt;
            // Our own timeout (no HTTP status): name the flag and its value;
            // a local server is not asked again by default (it is still
            // computing the request we gave up on).
            if error.kind == LlmErrorKind::Timeout && error.status.is_none() {
                error.message = format!(
                    "{} (--llm-timeout {} s, --connect-timeout {} s)",
                    error.message,
                    self.config.request_timeout.as_secs_f64(),
                    self.config.connect_timeout.as_secs_f64()
                );
                if !policy.retry_local_timeouts && retry::is_local_url(&self.config.base_url) {
                    error.message.push_str(
                        "; not retried: a local server goes on computing a request the client \
                         gave up on, so retries would pile up work; raise --llm-timeout, or \
                         pass --retry-local-timeouts",
                    );
                    return Err(error);
                }
            }
            // A refused connection to this machine or a private network
            // means no server is there: trying again for seconds would only
            // delay saying so. A remote host's may be a restart: retried.
            if error.refused && retry::is_local_url(&self.config.base_url) {
                return Err(error);
            }
            if !error.kind.is_retryable() || attempt > policy.max_retries {
                return Err(error);
            }
            let wait = policy.delay(attempt - 1, retry_after);
            let left = budget.saturating_sub(start.elapsed());
            if wait > left {
                error.message = format!(
                    "{} (the next try would wait {:.1} s, more than the {:.1} s left of the \
                     time budget: (connect + --llm-timeout) × attempts)",
                    error.message,
                    wait.as_secs_f64(),
                    left.as_secs_f64()
                );
                return Err(error);
            }
            std::thread::sleep(wait);
        }
    }

    /// One request: the 2xx body, or the error and the `Retry-After` wait.
    fn post_once(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: &str,
    ) -> Result<String, (LlmError, Option<Duration>)> {
        let mut request = self
            .agent
            .post(url)
            .header("content-type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, value.as_str());
        }
        let mut response = request
            .send(body)
            .map_err(|e| (transport_error(e, url), None))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(retry::parse_retry_after);
        if (300..400).contains(&status) {
            let location = response
                .headers()
                .get("location")
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
            let location = match location {
                Some(l) => format!("{:?}", cut(&self.redactor.text(&l), 500)),
                None => "nowhere (no Location header)".into(),
            };
            let message = format!(
                "the provider answered HTTP {status}, a redirect to {location}; redirects are not \
                 followed for provider APIs (the key would go along): set --base-url to the \
                 final address"
            );
            return Err((
                LlmError::new(LlmErrorKind::Rejected, message).with_status(status),
                None,
            ));
        }
        let text = response.body_mut().read_to_string().map_err(|e| {
            let mut err = transport_error(e, url);
            err.message = format!("reading the response body: {}", err.message);
            (err, None)
        })?;
        // Before anything is parsed, cut or stored.
        let text = self.redactor.text(&text);
        if (200..300).contains(&status) {
            return Ok(text);
        }
        let kind = match status {
            401 | 403 => LlmErrorKind::Auth,
            408 => LlmErrorKind::Timeout,
            429 => LlmErrorKind::RateLimited,
            500..=599 => LlmErrorKind::Server,
            _ => LlmErrorKind::Rejected,
        };
        let mut message = provider_message(&text);
        if status == 404 {
            message = format!("{message} ({})", not_found_hint(self.config.provider, url));
        }
        Err((
            LlmError::new(kind, message).with_status(status),
            retry_after,
        ))
    }
}

impl Llm for HttpLlm {
    fn complete(&mut self, messages: &[Message]) -> Result<LlmResponse, LlmError> {
        let start = Instant::now();
        let base = self.config.base_url.trim_end_matches('/');
        let key = self.key.as_deref();
        let (url, headers, body) = match self.config.provider {
            Provider::OpenAi => (
                format!("{base}/chat/completions"),
                openai::headers(key),
                openai::request(&self.config, messages),
            ),
            Provider::Anthropic => (
                format!("{base}/v1/messages"),
                anthropic::headers(key),
                anthropic::request(&self.config, messages),
            ),
        };
        let text = self.post(&url, &headers, &body)?;
        let parsed = match self.config.provider {
            Provider::OpenAi => openai::response(&text, &self.config.model, self.config.protocol),
            Provider::Anthropic => {
                anthropic::response(&text, &self.config.model, self.config.protocol)
            }
        };
        let mut response = parsed.map_err(|mut e| {
            e.message = self.redact(e.message);
            e
        })?;
        // JSON escapes can spell the key differently in the raw body.
        response.text = self.redactor.text(&response.text);
        response.model = self.redactor.text(&response.model);
        response.finish_reason = response.finish_reason.map(|f| self.redactor.text(&f));
        response.usage.provider = response.usage.provider.map(|u| self.redactor.json(u));
        response.latency = start.elapsed();
        response.cost_usd = self
            .config
            .prices
            .as_ref()
            .and_then(|p| p.cost(&response.usage));
        Ok(response)
    }
}

/// What a 404 from a provider usually means: a base URL that does not end
/// where the API's paths begin. The URL named has no secrets (keys travel in
/// headers).
fn not_found_hint(provider: Provider, url: &str) -> String {
    match provider {
        Provider::OpenAi => format!(
            "the request went to {url}: check that --base-url ends where the API's paths \
             begin (…/v1, e.g. http://127.0.0.1:8080/v1); ptc appends /chat/completions"
        ),
        Provider::Anthropic => format!(
            "the request went to {url}: check that --base-url is the API's root, without /v1 \
             (e.g. https://api.anthropic.com); ptc appends /v1/messages"
        ),
    }
}

/// A failed request to `url` without an HTTP answer; the message names
/// the URL. A refused connection is [`LlmError::refused`].
fn transport_error(e: ureq::Error, url: &str) -> LlmError {
    let kind = match &e {
        ureq::Error::Timeout(_) => LlmErrorKind::Timeout,
        ureq::Error::Io(_) | ureq::Error::Protocol(_) | ureq::Error::ConnectionFailed => {
            LlmErrorKind::Connection
        }
        _ => LlmErrorKind::Config,
    };
    let refused =
        matches!(&e, ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused);
    let message = match &e {
        _ if refused => format!(
            "nothing is listening at {url} (connection refused): is the model's server running, \
             and is --base-url its address?"
        ),
        ureq::Error::Timeout(t) => {
            format!("POST {url}: no complete answer in time ({t:?} timeout)")
        }
        ureq::Error::HostNotFound => format!("POST {url}: host not found (check --base-url)"),
        other => format!("POST {url}: {other}"),
    };
    let mut error = LlmError::new(kind, message);
    error.refused = refused;
    error
}

/// The first `n` characters of `text`.
fn cut(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

/// The provider's own message in an error body: `error.message` (OpenAI,
/// Anthropic), `error` as a string, `message`, else the body itself
/// (first 500 characters).
fn provider_message(body: &str) -> String {
    let trimmed = body.trim();
    if trimmed.is_empty() {
        return "the provider sent an empty error body".into();
    }
    if let Ok(json) = serde_json::from_str::<Json>(trimmed) {
        let found = json
            .pointer("/error/message")
            .or_else(|| json.get("error").filter(|e| e.is_string()))
            .or_else(|| json.get("message"))
            .and_then(Json::as_str);
        if let Some(m) = found {
            return m.to_string();
        }
    }
    trimmed.chars().take(500).collect()
}

/// Parses a 2xx body as JSON, or says clearly why it is not.
fn parse_body(provider: Provider, text: &str) -> Result<Json, LlmError> {
    if text.trim().is_empty() {
        return Err(LlmError::new(
            LlmErrorKind::BadResponse,
            format!("{}: the response body is empty", provider.name()),
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        let start: String = text.chars().take(200).collect();
        LlmError::new(
            LlmErrorKind::BadResponse,
            format!(
                "{}: the response body is not JSON ({e}); it starts with {start:?}",
                provider.name()
            ),
        )
    })
}

/// A count in a usage object.
fn count(usage: Option<&Json>, key: &str) -> Option<u64> {
    usage.and_then(|u| u.get(key)).and_then(Json::as_u64)
}
