package core

import (
	"strconv"
	"strings"
)

// forbiddenSegments are refused in any path: a JavaScript client that
// applied them would pollute Object.prototype, and no Wire has them.
var forbiddenSegments = []string{"__proto__", "constructor", "prototype"}

// checkPointer validates a JSON Pointer (RFC 6901) token by token and
// refuses what json-patch/v5 would read otherwise than the RFC says:
// "~" not followed by 0 or 1, an empty token (the library addresses the
// container instead of the member ""), and array indices written as
// -1, +1 or 01. The empty pointer is the whole document.
func checkPointer(p string) string {
	if p == "" {
		return ""
	}
	if p[0] != '/' {
		return "path must start with /"
	}
	for token := range strings.SplitSeq(p[1:], "/") {
		token, ok := unescapeToken(token)
		if !ok {
			return "path has a ~ not followed by 0 or 1 (write ~0 for ~ and ~1 for /)"
		}
		if token == "" {
			return `path has an empty reference token: no member of a state is named ""`
		}
		for _, f := range forbiddenSegments {
			if token == f {
				return "forbidden path segment " + f
			}
		}
		if looksLikeIndex(token) {
			switch {
			case token[0] == '-':
				return "negative array index " + Bound(token)
			case token[0] == '+' || (len(token) > 1 && token[0] == '0'):
				return "non-canonical array index " + Bound(token)
			}
		}
	}
	return ""
}

// unescapeToken decodes ~1 and ~0; ok is false for any other ~.
func unescapeToken(token string) (string, bool) {
	if !strings.Contains(token, "~") {
		return token, true
	}
	var b strings.Builder
	for i := 0; i < len(token); i++ {
		if token[i] != '~' {
			b.WriteByte(token[i])
			continue
		}
		if i+1 == len(token) || (token[i+1] != '0' && token[i+1] != '1') {
			return "", false
		}
		b.WriteByte("~/"[token[i+1]-'0'])
		i++
	}
	return b.String(), true
}

// looksLikeIndex: an optional sign, then digits only.
func looksLikeIndex(s string) bool {
	digits := strings.TrimLeft(s, "+-")
	if len(digits) == 0 || len(s)-len(digits) > 1 {
		return false
	}
	return strings.Trim(digits, "0123456789") == ""
}

// inService splits a pointer into one service: "/services/2/latency" is
// service 2, "/latency". ok is false for anything else: the list itself,
// the root, an index out of range or not canonical, the service as a whole.
func inService(p string, services int) (index int, rest string, ok bool) {
	after, found := strings.CutPrefix(p, "/services/")
	if !found {
		return 0, "", false
	}
	digits, rest, found := strings.Cut(after, "/")
	if !found || digits == "" || (len(digits) > 1 && digits[0] == '0') || strings.Trim(digits, "0123456789") != "" {
		return 0, "", false
	}
	index, err := strconv.Atoi(digits)
	if err != nil || index >= services {
		return 0, "", false
	}
	return index, "/" + rest, true
}
