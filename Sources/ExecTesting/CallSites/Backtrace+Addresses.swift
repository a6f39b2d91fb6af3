// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

#if canImport(Runtime)
#if canImport(Darwin)
@_weakLinked import Runtime
#else
import Runtime
#endif

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension Backtrace {
    /// What an address of ``decoded(_:)`` is.
    enum AddressKind: UInt8 {
        /// A return address: symbolicated as the call just before it.
        case returnAddress = 0x20
        /// A program counter: symbolicated as it is.
        case programCounter = 0x10
        /// An async resume point: the start of the code that runs after an `await`.
        case asyncResumePoint = 0x30
    }

    /// A backtrace of frames that ExecTesting read itself (``CallPathCache``), innermost first, for the `Runtime`
    /// module to symbolicate.
    ///
    /// The `Runtime` module makes a `Backtrace` only by capturing one, whose frame-pointer walk reads wherever the chain
    /// points and faults on a frame that keeps no frame pointer (issue #38), or by decoding one. This decodes one: its
    /// `Codable` form is the documented Compact Backtrace Format (version 0), in base 64. `nil` if a later toolchain
    /// stops accepting it, and then no line is named: nothing crashes.
    ///
    /// - Cost: 9 bytes a frame and a few allocations; only when a report needs a line, or a new path of a task's
    ///   thread needs its functions' names.
    static func decoded(_ frames: [(kind: AddressKind, address: UInt)]) -> Backtrace? {
        var bytes: [UInt8] = [0x02]  // version 0, 64-bit words
        bytes.reserveCapacity(2 + 9 * frames.count)
        for (kind, address) in frames {
            bytes.append(kind.rawValue | 0x08 | 0x07)  // an absolute address of 8 bytes, most significant first
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: address >> shift))
            }
        }
        bytes.append(0x00)  // `end`
        let fields = ["architecture": Self.hostArchitecture, "backtrace": base64(bytes)]
        return try? Backtrace(from: FieldsDecoder(fields: fields))
    }

    private static var hostArchitecture: String {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "arm64"
        #else
        "unknown"
        #endif
    }
}

/// Standard base 64 with padding, the alphabet `Backtrace`'s decoder reads.
private func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var text: [UInt8] = []
    text.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
        let count = min(3, bytes.count - index)
        var group: UInt32 = 0
        for offset in 0..<3 { group = group << 8 | (offset < count ? UInt32(bytes[index + offset]) : 0) }
        for position in 0..<4 {
            let sextet = Int(group >> UInt32(18 - 6 * position) & 0x3F)
            text.append(position <= count ? alphabet[sextet] : UInt8(ascii: "="))
        }
        index += 3
    }
    return String(decoding: text, as: UTF8.self)
}

/// A `Decoder` of a flat set of string fields: all that `Backtrace.init(from:)` asks for.
private struct FieldsDecoder: Decoder {
    let fields: [String: String]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Fields<Key>(fields: fields))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw unsupported(Self.self) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw unsupported(Self.self) }

    private struct Fields<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let fields: [String: String]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { fields.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { fields[key.stringValue] == nil }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            guard let value = fields[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no \(key.stringValue)"))
            }
            return value
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw unsupported(T.self) }
        func nestedContainer<Nested: CodingKey>(
            keyedBy type: Nested.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<Nested> { throw unsupported(Nested.self) }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw unsupported(Key.self)
        }
        func superDecoder() throws -> any Decoder { throw unsupported(Key.self) }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw unsupported(Key.self) }
    }
}

private func unsupported(_ type: Any.Type) -> DecodingError {
    .typeMismatch(type, .init(codingPath: [], debugDescription: "only string fields are decoded here"))
}
#endif
