import Foundation

/// What a request body's JSON parser does not say by itself: where a malformed body goes wrong, and keys
/// given twice in one object (JSONDecoder keeps one of them silently).
enum JSONBodyChecks {
    /// Where `body` stops being JSON, as "line L, column C (byte offset B)" (1-based line and column,
    /// the offset counted from 0), or "its end" when it is cut short; nil when Foundation does not say.
    static func errorPosition(_ body: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
            return nil
        } catch {
            let description = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            if description.contains("end of file") { return "its end" }
            guard let range = description.range(of: #"character \d+"#, options: .regularExpression),
                  let offset = Int(description[range].dropFirst("character ".count)), offset <= body.count else { return nil }
            let before = body.prefix(offset)
            let line = before.count { $0 == 0x0A } + 1
            let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? body.startIndex
            let column = String(decoding: body[lineStart..<(body.startIndex + offset)], as: UTF8.self).count + 1
            return "line \(line), column \(column) (byte offset \(offset))"
        }
    }

    /// The first key given twice in one object of `body` (valid JSON), with its path (`$.ads.zoneId`) and
    /// the byte offset of its second occurrence; nil when every object's keys are distinct.
    static func duplicateKey(_ body: Data) -> (path: String, offset: Int)? {
        let bytes = [UInt8](body)
        // One entry per open object or array: the keys seen (nil for an array), and the path to it.
        var stack: [(keys: Set<String>?, path: String)] = []
        var expectingKey = false
        var lastKey: String?
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                stack.append((keys: [], path: childPath(stack.last, lastKey)))
                expectingKey = true
            case UInt8(ascii: "["):
                stack.append((keys: nil, path: childPath(stack.last, lastKey)))
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = stack.last?.keys != nil
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                if expectingKey, var top = stack.popLast(), top.keys != nil {
                    let token = Data(bytes[start...min(index, bytes.count - 1)])
                    let key = (try? JSONDecoder().decode(String.self, from: token)) ?? String(decoding: token, as: UTF8.self)
                    if top.keys?.insert(key).inserted == false { return ("\(top.path).\(key)", start) }
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

    /// The path of a value inside `parent` (an object's member under `key`, or an array's element).
    private static func childPath(_ parent: (keys: Set<String>?, path: String)?, _ key: String?) -> String {
        guard let parent else { return "$" }
        return parent.keys != nil ? "\(parent.path).\(key ?? "?")" : "\(parent.path)[]"
    }
}
