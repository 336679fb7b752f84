import Foundation

/// What a request body's JSON parser does not say by itself: where a malformed body goes wrong and why
/// (``JSONSyntax``), and keys given twice in one object (JSONDecoder keeps one of them silently).
enum JSONBodyChecks {
    /// Why `body` is not JSON and where: "it goes wrong at line L, column C (byte offset B): why" (1-based line
    /// and column, the offset counted from 0), or "it ends too soon: why"; nil when it is JSON.
    static func syntaxError(_ body: Data) -> String? {
        guard let failure = JSONSyntax.check([UInt8](body)) else { return nil }
        if failure.offset >= body.count { return "it ends too soon: " + failure.reason }
        return "it goes wrong at " + position(of: failure.offset, in: body) + ": " + failure.reason
    }

    /// A member's step in a path: `.name` for a plain name, `["a.b"]` for any other (a dot, a space, empty).
    static func member(_ key: String) -> String {
        let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
            && !("0"..."9").contains(key.unicodeScalars.first!)
        if plain { return "." + key }
        let quoted = (try? JSONEncoder().encode(key)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\(key)\""
        return "[\(quoted)]"
    }

    /// "line L, column C (byte offset B)" of byte `offset` of `body`.
    static func position(of offset: Int, in body: Data) -> String {
        let before = body.prefix(offset)
        let line = before.count { $0 == 0x0A } + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? body.startIndex
        let column = String(decoding: body[lineStart..<(body.startIndex + offset)], as: UTF8.self).count + 1
        return "line \(line), column \(column) (byte offset \(offset))"
    }

    /// A key given twice in one object of `body` (valid JSON), named by its path (`$.ads.zoneId`,
    /// `$.tags[2].id`), with where; nil when every object's keys are distinct.
    static func duplicateKey(_ body: Data) -> String? {
        let bytes = [UInt8](body)
        // One entry per open object or array: the keys seen (nil for an array), its path, and for an array the
        // index of the element being read.
        var stack: [(keys: Set<String>?, path: String, element: Int)] = []
        var expectingKey = false
        var lastKey: String?
        var index = 0
        func childPath() -> String {
            guard let parent = stack.last else { return "$" }
            return parent.keys != nil ? parent.path + member(lastKey ?? "?") : "\(parent.path)[\(parent.element)]"
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                stack.append((keys: [], path: childPath(), element: 0))
                expectingKey = true
            case UInt8(ascii: "["):
                stack.append((keys: nil, path: childPath(), element: 0))
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = stack.last?.keys != nil
                if stack.last?.keys == nil, !stack.isEmpty { stack[stack.count - 1].element += 1 }
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                if expectingKey, var top = stack.popLast(), top.keys != nil {
                    let token = Data(bytes[start...min(index, bytes.count - 1)])
                    let key = (try? JSONDecoder().decode(String.self, from: token)) ?? String(decoding: token, as: UTF8.self)
                    if top.keys?.insert(key).inserted == false {
                        return "\(top.path + member(key)) is given twice (the second at \(position(of: start, in: body)))"
                    }
                    stack.append(top)
                    lastKey = key
                    expectingKey = false
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}

