package jsonscan

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Object reports whether data is one JSON object, and nothing after it but
// white space, that the decoder reads without error, handing each of its
// members to each (the name as its quoted string, the value as its JSON,
// both within data). It checks what the decoder checks by default: RFC
// 8259's grammar, valid UTF-8, no name twice in an object. false means it
// cannot vouch for data: it gives up on anything rare (a name with an
// escape, a \u escape of a surrogate, more names than it holds, deep
// nesting), and never accepts what the decoder refuses. Members handed
// over before it gave up are of no use.
func Object(data []byte, each func(name, value []byte)) bool {
	s := scanner{data: data, i: PastSpace(data, 0)}
	if s.i == len(data) || data[s.i] != '{' {
		return false
	}
	return s.object(each) && PastSpace(data, s.i) == len(data)
}

// Valid is Object for a JSON value of any kind.
func Valid(data []byte) bool {
	s := scanner{data: data, i: PastSpace(data, 0)}
	return s.value() && PastSpace(data, s.i) == len(data)
}

// scanner is one reading: where it is, how deep, and the names of the
// objects it is inside, to find a name given twice.
type scanner struct {
	data  []byte
	i     int
	depth int
	names [MaxNames]struct{ start, end int } // within data
	held  int                                // names in use, the open objects' together
}

const (
	MaxNames = 32  // names held at once, the open objects' together: past it the scanner gives up
	maxDepth = 128 // nesting past which the scanner gives up
)

// value reads the value at s.i.
func (s *scanner) value() bool {
	if s.i >= len(s.data) {
		return false
	}
	switch s.data[s.i] {
	case '{':
		return s.object(nil)
	case '[':
		return s.array()
	case '"':
		_, ok := s.str()
		return ok
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	}
	return s.number()
}

// object reads the object at s.i, handing each member to keep if there
// is one (the top object's).
func (s *scanner) object(keep func(name, value []byte)) bool {
	if s.depth == maxDepth {
		return false
	}
	s.depth++
	first := s.held
	ok := s.members(keep, first)
	s.held, s.depth = first, s.depth-1
	return ok
}

// members reads an object's members, from its opening brace; first
// is where its names start in s.names.
func (s *scanner) members(keep func(name, value []byte), first int) bool {
	s.i = PastSpace(s.data, s.i+1)
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return true
	}
	for {
		start := s.i
		if s.i >= len(s.data) || s.data[s.i] != '"' {
			return false
		}
		escaped, ok := s.str()
		switch {
		case !ok:
			return false
		case escaped:
			return false // names compare unescaped: the decoder's work
		case s.held == MaxNames:
			return false // no room to remember it
		}
		name := s.data[start:s.i]
		for _, held := range s.names[first:s.held] {
			if string(s.data[held.start:held.end]) == string(name) {
				return false
			}
		}
		s.names[s.held].start, s.names[s.held].end = start, s.i
		s.held++
		s.i = PastSpace(s.data, s.i)
		if s.i >= len(s.data) || s.data[s.i] != ':' {
			return false
		}
		s.i = PastSpace(s.data, s.i+1)
		valueStart := s.i
		if !s.value() {
			return false
		}
		if keep != nil {
			keep(name, s.data[valueStart:s.i])
		}
		if more, ok := s.next('}'); !more {
			return ok
		}
	}
}

// array reads the array at s.i.
func (s *scanner) array() bool {
	if s.depth == maxDepth {
		return false
	}
	s.depth++
	ok := s.elements()
	s.depth--
	return ok
}

// elements reads an array's values, from its opening bracket.
func (s *scanner) elements() bool {
	s.i = PastSpace(s.data, s.i+1)
	if s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		return true
	}
	for {
		if !s.value() {
			return false
		}
		if more, ok := s.next(']'); !more {
			return ok
		}
	}
}

// next reads what follows a value in an object or array: a comma, with
// another value to come (more), or the closing bracket.
func (s *scanner) next(closing byte) (more, ok bool) {
	s.i = PastSpace(s.data, s.i)
	if s.i < len(s.data) {
		switch s.data[s.i] {
		case ',':
			s.i = PastSpace(s.data, s.i+1)
			return true, true
		case closing:
			s.i++
			return false, true
		}
	}
	return false, false
}

// str reads the string at s.i; escaped is true when it holds an escape.
func (s *scanner) str() (escaped, ok bool) {
	data, i := s.data, s.i+1
	ascii := true
	for i < len(data) {
		for i < len(data) && printable[data[i]] {
			i++ // most bytes of most strings
		}
		if i == len(data) {
			break
		}
		switch c := data[i]; {
		case c == '"':
			if !ascii && !utf8.Valid(data[s.i+1:i]) {
				return false, false
			}
			s.i = i + 1
			return escaped, true
		case c == '\\':
			escaped = true
			if i+1 >= len(data) {
				return false, false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				r, ok := hex4(data[i+2:])
				if !ok || utf16.IsSurrogate(rune(r)) { // whether it pairs is the decoder's to say
					return false, false
				}
				i += 6
			default:
				return false, false
			}
		case c < 0x20:
			return false, false
		default: // beyond ASCII: checked whole at the string's end
			ascii = false
			i++
		}
	}
	return false, false
}

// printable are the bytes a string holds as they stand: ASCII from space
// on, but the quote and the backslash.
var printable = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// hex4 is the value of four hex digits at the start of b.
func hex4(b []byte) (uint16, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var v uint16
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint16(c)
	}
	return v, true
}

// literal reads true, false or null.
func (s *scanner) literal(word string) bool {
	if len(s.data)-s.i < len(word) || string(s.data[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

// number reads a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	data, i := s.data, s.i
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = pastDigits(data, i)
	default:
		return false
	}
	if i < len(data) && data[i] == '.' {
		digits := i + 1
		if i = pastDigits(data, digits); i == digits {
			return false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		digits := i
		if i = pastDigits(data, i); i == digits {
			return false
		}
	}
	s.i = i
	return true
}

func pastDigits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}
