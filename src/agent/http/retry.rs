//! When to try a request again: exponential backoff with jitter, at least
//! the provider's `Retry-After`.

use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

/// The longest `Retry-After` honoured; a longer one is waited this long.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(300);

/// Retries of one request.
#[derive(Clone, Debug, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (so at most `max_retries + 1`
    /// requests).
    pub max_retries: u32,
    /// The wait before the first retry; doubled for each next one.
    pub base_delay: Duration,
    /// The longest backoff wait (before jitter).
    pub max_delay: Duration,
    /// Retry a request that timed out against a local server (loopback or
    /// private address, [`is_local_url`]) too. Off by default: a local
    /// server goes on computing the abandoned request, so retries pile
    /// work up behind each other.
    pub retry_local_timeouts: bool,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy {
            max_retries: 4,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            retry_local_timeouts: false,
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (0-based): `base · 2^retry`,
    /// capped at `max_delay`, times a random factor in [0.5, 1); at least
    /// `retry_after` (capped at [`MAX_RETRY_AFTER`]) when the provider sent
    /// one.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        let backoff = self
            .base_delay
            .saturating_mul(2u32.saturating_pow(retry.min(20)))
            .min(self.max_delay);
        let jittered = backoff.mul_f64(0.5 + 0.5 * unit_random());
        match retry_after {
            Some(wait) => jittered.max(wait.min(MAX_RETRY_AFTER)),
            None => jittered,
        }
    }
}

/// Whether `url`'s host is this machine or a private network: `localhost`
/// (and `*.localhost`), a loopback, private, link-local or unique-local
/// address. Such servers (llama.cpp, Ollama, vLLM) compute a request to
/// the end even when the client has given up on it.
pub fn is_local_url(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        authority.split(':').next().unwrap_or("")
    };
    let host = host.to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    match host.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(ip)) => {
            ip.is_loopback() || ip.is_private() || ip.is_link_local() || ip.is_unspecified()
        }
        Ok(std::net::IpAddr::V6(ip)) => {
            let first = ip.segments()[0];
            ip.is_loopback()
                || ip.is_unspecified()
                || (first & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (first & 0xffc0) == 0xfe80 // link local fe80::/10
                || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback() || v4.is_private())
        }
        Err(_) => false,
    }
}

/// A number in [0, 1) from the standard library's random hash keys.
fn unit_random() -> f64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0);
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
}

/// `Retry-After` in seconds (`"2"`, `"1.5"`); an HTTP date is not
/// honoured (the backoff applies).
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let secs: f64 = value.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(1e6)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_and_respects_retry_after() {
        let p = RetryPolicy {
            max_retries: 5,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(1000),
            retry_local_timeouts: false,
        };
        for retry in 0..6 {
            let full = (100u64 << retry).min(1000);
            let d = p.delay(retry, None).as_millis() as u64;
            assert!(d >= full / 2 && d <= full, "retry {retry}: {d} of {full}");
        }
        assert!(p.delay(0, Some(Duration::from_secs(2))) >= Duration::from_secs(2));
        assert_eq!(
            p.delay(0, Some(Duration::from_secs(100_000))),
            MAX_RETRY_AFTER
        );
    }

    #[test]
    fn retry_after_in_seconds_only() {
        assert_eq!(parse_retry_after(" 2 "), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("-1"), None);
    }
}

#[cfg(test)]
mod local_tests {
    use super::is_local_url;

    #[test]
    fn local_and_private_hosts() {
        for url in [
            "http://127.0.0.1:8080/v1",
            "http://localhost:11434/v1",
            "http://LOCALHOST/v1",
            "http://api.localhost/v1",
            "http://10.1.2.3/v1",
            "http://172.16.0.9:8000",
            "http://192.168.1.20:8080/v1",
            "http://[::1]:8080/v1",
            "http://[fd00::1]/v1",
            "http://user:pw@127.0.0.2/v1",
            "http://0.0.0.0:8000/v1",
        ] {
            assert!(is_local_url(url), "{url}");
        }
        for url in [
            "https://api.openai.com/v1",
            "https://api.anthropic.com",
            "http://172.32.0.1/v1",
            "http://8.8.8.8/v1",
            "http://localhost.example.com/v1",
            "http://[2001:db8::1]/v1",
        ] {
            assert!(!is_local_url(url), "{url}");
        }
    }
}
