//! An error and its causes as one line for people: `outer: cause: root cause`. Transport
//! libraries (reqwest, hyper) keep the useful part ("connection refused") in the sources, not
//! in their own message. A cause whose text the line already holds is not repeated. It only
//! formats; what to do about the error is the caller's to say.

use std::error::Error;

/// `e` and each of its sources, `: `-joined, without repeating text already shown.
pub fn error_chain(e: &(dyn Error + 'static)) -> String {
    let mut line = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        source = cause.source();
    }
    line
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use super::error_chain;

    #[derive(Debug)]
    struct Layer(&'static str, Option<Box<Layer>>);

    impl fmt::Display for Layer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Layer {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|l| l as _)
        }
    }

    #[test]
    fn causes_follow_once_each() {
        let root = Layer("connection refused", None);
        let mid = Layer(
            "tcp connect error: connection refused",
            Some(Box::new(root)),
        );
        let top = Layer("error sending request", Some(Box::new(mid)));
        assert_eq!(
            error_chain(&top),
            "error sending request: tcp connect error: connection refused"
        );
        assert_eq!(error_chain(&Layer("alone", None)), "alone");
    }
}
