import { execFileSync } from "node:child_process";
import { join } from "node:path";

/** A self-signed certificate for `localhost` and 127.0.0.1, valid one day: PEM files in `folder`. */
export interface Certificate {
  key: string;
  /** Also the file a process trusts it by (NODE_EXTRA_CA_CERTS). */
  certificate: string;
}

/**
 * Made with openssl, so loopback services can speak https as the manifest's addresses must.
 *
 * @example
 * const { key, certificate } = selfSignedCertificate(mkdtempSync(join(tmpdir(), "svc-tls-")));
 */
export function selfSignedCertificate(folder: string): Certificate {
  const key = join(folder, "key.pem");
  const certificate = join(folder, "cert.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1"],
      ...["-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  return { key, certificate };
}
