import PlayheadNet
import Testing

/// How HTTP errors read.
@Suite struct HTTPErrorTextTests {
    /// A URL of 300 000 characters is shown by its start and end around a count of what was left out
    /// (QA: the whole URL was echoed in one error line); a usual URL is shown whole.
    @Test func aVeryLongURLIsShortenedInTheText() {
        let long = "http://127.0.0.1/" + String(repeating: "a", count: 300_000) + "/end.ts"
        let text = HTTPError.status(url: long, code: 414, bodyPrefix: []).description
        #expect(text.count < 700, "\(text.count) characters")
        #expect(text.hasPrefix("HTTP 414 for http://127.0.0.1/aaa") && text.hasSuffix("aaa/end.ts"))
        #expect(text.contains("…[\(long.count - 480) characters]…"))
        let usual = "http://127.0.0.1:8080/ts/v0/seg000.ts"
        #expect(HTTPError.timeout(url: usual, phase: .total, after: 60).description == "total timeout after 60.0 s for \(usual)")
        #expect(HTTPError.status(url: long, code: 414, bodyPrefix: []).url == long, "the error keeps the whole URL")
    }

    /// An error page in HTML is shown by its title, not its markup (QA: "<!DOCTYPE HTML> <html lang=...");
    /// one without a title adds nothing; a text body is shown as it is.
    @Test func anHTMLErrorPageIsShownByItsTitle() {
        let url = "http://127.0.0.1:8080/ts/v0/seg003.ts"
        let nginx = "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body><center><h1>404 Not Found</h1></center></body></html>"
        #expect(HTTPError.status(url: url, code: 404, bodyPrefix: Array(nginx.utf8)).description == "HTTP 404 for \(url): 404 Not Found")
        let untitled = "<!DOCTYPE HTML>\n<html lang=\"en\"><body>gone</body></html>"
        #expect(HTTPError.status(url: url, code: 404, bodyPrefix: Array(untitled.utf8)).description == "HTTP 404 for \(url)")
        #expect(HTTPError.status(url: url, code: 503, bodyPrefix: Array("fault injected\n".utf8)).description == "HTTP 503 for \(url): fault injected")
    }

    /// A text body longer than the 80 characters shown ends in an ellipsis (QA37: "is past the end (45120 byte"
    /// read as the whole message); one that fits is shown as it is.
    @Test func aLongTextBodyIsCutWithAnEllipsis() {
        let url = "http://127.0.0.1:8080/media.ts"
        let body = "range 45120-45500 of media.ts is past the end (45120 bytes); ask for bytes 0-45119 of it instead"
        let text = HTTPError.status(url: url, code: 416, bodyPrefix: Array(body.utf8)).description
        #expect(text == "HTTP 416 for \(url): \(body.prefix(80))…", "\(text)")
        let exact = String(repeating: "x", count: 80)
        #expect(HTTPError.status(url: url, code: 416, bodyPrefix: Array(exact.utf8)).description == "HTTP 416 for \(url): \(exact)")
    }
}
