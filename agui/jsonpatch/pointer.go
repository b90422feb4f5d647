package jsonpatch

import (
	"errors"
	"strings"
)

// Pointer is an RFC 6901 JSON Pointer, read into its reference tokens:
// none for "" (the whole document).
type Pointer []string

// ParsePointer reads a JSON Pointer (see CheckPointer).
func ParsePointer(s string) (Pointer, error) {
	if err := CheckPointer(s); err != nil {
		return nil, err
	}
	if s == "" {
		return Pointer{}, nil
	}
	tokens := strings.Split(s[1:], "/")
	for i, token := range tokens {
		if strings.Contains(token, "~") {
			tokens[i] = tokenUnescaper.Replace(token)
		}
	}
	return tokens, nil
}

// CheckPointer reports whether s is a JSON Pointer: "" or "/"-prefixed
// tokens in which "~" is only ever "~0" (for ~) or "~1" (for /).
func CheckPointer(s string) error {
	if s != "" && s[0] != '/' {
		return errors.New("a JSON Pointer starts with /")
	}
	for i := strings.IndexByte(s, '~'); i >= 0; i = strings.IndexByte(s, '~') {
		if i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1') {
			return errors.New("a ~ in a JSON Pointer must be ~0 (for ~) or ~1 (for /)")
		}
		s = s[i+2:]
	}
	return nil
}

// String writes the pointer back, escaped.
func (p Pointer) String() string {
	var b strings.Builder
	for _, token := range p {
		b.WriteByte('/')
		b.WriteString(EscapeToken(token))
	}
	return b.String()
}

// EscapeToken escapes one reference token: ~ as ~0, / as ~1. Most tokens
// need neither and are returned as they are, without allocating.
func EscapeToken(token string) string {
	if !strings.ContainsAny(token, "~/") {
		return token
	}
	return tokenEscaper.Replace(token)
}

var (
	tokenEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	tokenUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// index reads an array index token: "0", or digits without a leading
// zero, below n (n+1 where the end of the array is allowed).
func index(token string, n int) (int, bool) {
	if token == "" || len(token) > 1 && token[0] == '0' || len(token) > 9 {
		return 0, false
	}
	i := 0
	for _, c := range []byte(token) {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int(c-'0')
	}
	return i, i < n
}

// Resolve returns the value p points at in doc.
func Resolve(doc Value, p Pointer) (Value, bool) {
	for _, token := range p {
		switch node := doc.(type) {
		case *Object:
			v, ok := node.Get(token)
			if !ok {
				return nil, false
			}
			doc = v
		case *Array:
			i, ok := index(token, node.Len())
			if !ok {
				return nil, false
			}
			doc = node.At(i)
		default:
			return nil, false
		}
	}
	return doc, true
}
