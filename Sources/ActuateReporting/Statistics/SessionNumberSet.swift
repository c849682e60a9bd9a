/// A set of session numbers (as ``StatisticsAccumulator`` numbers sessions, from 0 in order of appearance) that
/// takes the smaller of two forms: a hash set while it holds few of the sessions seen, then a bitmap with one bit per
/// session number once that is smaller.
///
/// A content shown in most sessions costs one bit per session rather than about six bytes, and an insert is a shift
/// and a mask rather than a hash.
struct SessionNumberSet {
    /// The bits a member takes in the hash set, roughly: four bytes at a load of about two thirds.
    private static let bitsPerHashedMember = 48
    /// Below this many members the hash set is kept whatever the numbers.
    private static let smallestBitmapCount = 256

    private var hashed: Set<UInt32> = []
    /// Bit `n % 64` of word `n / 64` is set when `n` is a member; used once ``isBitmap`` is true.
    private var words: [UInt64] = []
    private var isBitmap = false
    /// The number of members.
    private(set) var count = 0

    /// Inserts a session number.
    mutating func insert(_ number: UInt32) {
        if isBitmap {
            setBit(number)
            return
        }
        guard hashed.insert(number).inserted else { return }
        count += 1
        if count >= Self.smallestBitmapCount, count * Self.bitsPerHashedMember > Int(number) {
            convertToBitmap()
        }
    }

    /// Sets the bits of this set's members in `bitmap` (one bit per session number, as this set keeps them), which
    /// must have a word for every member.
    func addMembers(to bitmap: inout [UInt64]) {
        if isBitmap {
            for (index, word) in words.enumerated() { bitmap[index] |= word }
        } else {
            for number in hashed { bitmap[Int(number >> 6)] |= 1 << UInt64(number & 63) }
        }
    }

    private mutating func setBit(_ number: UInt32) {
        let index = Int(number >> 6)
        if index >= words.count {
            words.append(contentsOf: repeatElement(0, count: index + 1 - words.count))
        }
        let bit: UInt64 = 1 << UInt64(number & 63)
        if words[index] & bit == 0 {
            words[index] |= bit
            count += 1
        }
    }

    private mutating func convertToBitmap() {
        let members = hashed
        hashed = []
        isBitmap = true
        count = 0
        for number in members { setBit(number) }
    }
}
