//! HTTPS through the one TLS stack (rustls with ring, `mcplab_net::tls`): a loopback TLS
//! server with a self-signed certificate answers a client that trusts the certificate, and a
//! client that does not trust it is refused during the handshake, so certificates are checked.
//! Every other test talks plain HTTP on loopback; without this one a build with no TLS (or no
//! crypto provider) would pass them all.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;

/// A TLS server on 127.0.0.1 that answers every request `hello`; its certificate (PEM) and the
/// number of requests it read.
async fn https_server() -> (String, String, Arc<std::sync::atomic::AtomicUsize>) {
    let certified = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_string()]).unwrap();
    let pem = certified.cert.pem();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(certified.signing_key.serialize_der().into());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![certified.cert.der().clone()], key)
        .unwrap();
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!(
        "https://127.0.0.1:{}/",
        listener.local_addr().unwrap().port()
    );
    let requests = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = requests.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (acceptor, counter) = (acceptor.clone(), counter.clone());
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match tls.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let answer =
                    b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello";
                let _ = tls.write_all(answer).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    (url, pem, requests)
}

#[tokio::test]
async fn https_to_a_server_whose_certificate_the_client_trusts() {
    let (url, pem, requests) = https_server().await;
    let client = mcplab_net::tls::client_builder()
        .no_proxy()
        .add_root_certificate(reqwest::Certificate::from_pem(pem.as_bytes()).unwrap())
        .build()
        .unwrap();
    let response = tokio::time::timeout(Duration::from_secs(10), client.get(&url).send())
        .await
        .expect("the HTTPS request hung")
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), "hello");
    assert_eq!(requests.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[tokio::test]
async fn https_to_an_untrusted_certificate_is_refused_before_any_request() {
    let (url, _pem, requests) = https_server().await;
    let client = mcplab_net::tls::client_builder()
        .no_proxy()
        .build()
        .unwrap();
    let error = tokio::time::timeout(Duration::from_secs(10), client.get(&url).send())
        .await
        .expect("the HTTPS request hung")
        .unwrap_err();
    let chain = mcplab_protocol::error_chain::error_chain(&error);
    assert!(error.is_connect(), "{chain}");
    assert!(chain.to_lowercase().contains("certificate"), "{chain}");
    // The server never got a request: the handshake stopped it.
    assert_eq!(requests.load(std::sync::atomic::Ordering::SeqCst), 0);
}
