/// Why a text is not a WebVTT file at all: an issue at line 1 (`line 1: missing WEBVTT signature`).
/// Only a missing or malformed `WEBVTT` signature is fatal; every other problem is a ``WebVTTIssue`` in
/// the parsed document, of the same shape (a 1-based line and what was wrong).
public typealias WebVTTError = WebVTTIssue

extension WebVTTIssue: Error {}
