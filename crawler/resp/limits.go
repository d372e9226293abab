package resp

// Default limits, used where a Limits field is zero or negative.
const (
	DefaultMaxLineBytes        = 64 << 10
	DefaultMaxBulkBytes        = 16 << 20
	DefaultMaxArrayLen         = 1 << 20
	DefaultMaxDepth            = 32
	DefaultMaxReplyBytes int64 = 64 << 20
)

// Limits bound what one reply may cost. Redis is usually a trusted
// server, but a reply is still read into memory whole, and a bug or a
// command that matches too much (KEYS *, SMEMBERS of a set of a hundred
// million URLs) would otherwise take all of it. Every length the server
// sends is checked before anything is allocated for it.
type Limits struct {
	// MaxLineBytes bounds a simple string, an error, an integer, or the
	// length line of a bulk string or array, not counting its CRLF.
	MaxLineBytes int
	// MaxBulkBytes bounds one bulk string. (Redis's own limit on a value
	// it accepts, proto-max-bulk-len, is 512 MiB by default.)
	MaxBulkBytes int
	// MaxArrayLen bounds the number of elements of one array.
	MaxArrayLen int
	// MaxDepth bounds arrays nested in arrays: an array of integers is
	// depth 1. A script can return tables nested without end.
	MaxDepth int
	// MaxReplyBytes bounds one whole reply as it is on the wire.
	MaxReplyBytes int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = DefaultMaxLineBytes
	}
	if l.MaxBulkBytes <= 0 {
		l.MaxBulkBytes = DefaultMaxBulkBytes
	}
	if l.MaxArrayLen <= 0 {
		l.MaxArrayLen = DefaultMaxArrayLen
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxReplyBytes <= 0 {
		l.MaxReplyBytes = DefaultMaxReplyBytes
	}
	return l
}
