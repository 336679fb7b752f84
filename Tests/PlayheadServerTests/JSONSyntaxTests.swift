@testable import PlayheadServer
import Foundation
import PlayheadCore
import Testing

/// The request bodies' syntax check against JSONSerialization: every document Foundation takes strictly is
/// taken, and what is not JSON is refused at the right byte with its reason.
@Suite struct JSONSyntaxTests {
    @Test(arguments: [#"{}"#, #"[]"#, #"{"a": [1, -0.5e+3, 0, 1E2, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"]}"#,
                      " \n{\"a\" :\t{\"b\":[[], {}]}}\r\n", #""a string""#, "12", #"{"é": "ü"}"#])
    func wellFormedDocumentsAreTaken(_ text: String) throws {
        #expect(JSONSyntax.check(Array(text.utf8)) == nil)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil)
    }

    @Test(arguments: [
        ("{", 1, "the object opened at byte 0 is never closed"),
        (#"{"a" 1}"#, 5, "expected ':' after the key, found '1'"),
        (#"{"a": 1 "b": 2}"#, 8, "expected ',' or '}', found '\"'"),
        (#"{a: 1}"#, 1, "expected a key in double quotes, found 'a'"),
        ("[1,]", 2, "a comma before ']'"),
        ("[1 2]", 3, "expected ',' or ']', found '2'"),
        (#"{"a": -}"#, 7, "a digit should follow '-'"),
        (#"{"a": 1.}"#, 8, "a digit should follow the decimal point"),
        (#"{"a": 1e}"#, 8, "a digit should follow the exponent's 'e'"),
        (#"{"a": nul}"#, 6, "expected null"),
        (#"{"a": "\uDC00"}"#, 7, #"\uDC00 is a low surrogate without a high one before it"#),
        (#"{"a": "\uD800\u0041"}"#, 7, #"\uD800 is a high surrogate without a low one after it"#),
        (#"{"a": 1} x"#, 9, "more text after the JSON value"),
        ("", 0, "a value should come here, and the text ends"),
        ("\u{FEFF}{}", 0, "a byte order mark (EF BB BF): JSON is sent without one (RFC 8259 §8.1)"),
        ("{\"a\": é}", 6, "expected a value (an object, array, string, number, true, false or null), found a non-ASCII character"),
    ])
    func malformedDocumentsAreRefusedWhereTheyGoWrong(_ text: String, offset: Int, reason: String) {
        #expect(JSONSyntax.check(Array(text.utf8)) == JSONSyntax.Failure(offset: offset, reason: reason), "\(text)")
    }

    /// A key that is no plain name is written quoted in a path, so "a.b" cannot read as two keys (QA34).
    @Test func pathsQuoteKeysThatAreNoPlainNames() {
        #expect(JSONBodyChecks.member("zoneId") == ".zoneId" && JSONBodyChecks.member("é_1") == ".é_1")
        #expect(JSONBodyChecks.member("a.b") == #"["a.b"]"# && JSONBodyChecks.member("") == #"[""]"# && JSONBodyChecks.member("1a") == #"["1a"]"#)
        let body = Data(#"{"x": [{"a.b": 1, "a.b": 2}]}"#.utf8)
        #expect(JSONBodyChecks.problem(body)?.hasPrefix(#"$.x[0]["a.b"] is given twice"#) == true, "\(JSONBodyChecks.problem(body) ?? "")")
    }

    @Test func nestingIsLimited() {
        let deep = String(repeating: "[", count: JSONSyntax.maxDepth + 1) + String(repeating: "]", count: JSONSyntax.maxDepth + 1)
        #expect(JSONSyntax.check(Array(deep.utf8)) == JSONSyntax.Failure(offset: JSONSyntax.maxDepth, reason: "objects and arrays nested more than 512 deep"))
        let allowed = String(repeating: "[", count: JSONSyntax.maxDepth) + String(repeating: "]", count: JSONSyntax.maxDepth)
        #expect(JSONSyntax.check(Array(allowed.utf8)) == nil)
    }
}
