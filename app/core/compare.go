package core

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

// testValue evaluates an RFC 6902 "test": the value at path must exist and
// equal value, numbers by their value (1 equals 1.0, -0 equals 0), objects
// whatever their key order. json-patch/v5 compares numbers as text, lets a
// test of null pass on a missing member, and can panic on arrays holding
// null, so tests are evaluated here; every other operation is the
// library's.
func testValue(doc []byte, path string, value []byte) error {
	want, err := decodeAny(value)
	if err != nil {
		return patchError("value: " + err.Error())
	}
	root, err := decodeAny(doc)
	if err != nil {
		return patchError(err.Error())
	}
	got, ok := resolve(root, path)
	if !ok {
		return patchError("the path does not exist")
	}
	if !jsonEqual(got, want) {
		return patchError("test failed: the value differs")
	}
	return nil
}

// decodeAny decodes JSON keeping numbers as written: a number no float64
// holds (1e400) is still a number to compare.
func decodeAny(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// resolve follows a checked JSON Pointer through decoded JSON.
func resolve(v any, path string) (any, bool) {
	if path == "" {
		return v, true
	}
	for token := range strings.SplitSeq(path[1:], "/") {
		token, _ = unescapeToken(token)
		switch node := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = node[token]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(node) {
				return nil, false
			}
			v = node[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// jsonEqual is RFC 6902 section 4.6 equality of decoded JSON.
func jsonEqual(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !jsonEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := b.(json.Number)
		return ok && sameNumber(a, b)
	default:
		return a == b // string, bool or nil
	}
}

// sameNumber compares two JSON numbers by value: exactly as float64s when
// both fit, else as arbitrary-precision decimals.
func sameNumber(a, b json.Number) bool {
	x, errA := strconv.ParseFloat(string(a), 64)
	y, errB := strconv.ParseFloat(string(b), 64)
	if errA == nil && errB == nil {
		return x == y
	}
	p, _, errA := big.ParseFloat(string(a), 10, 1024, big.ToNearestEven)
	q, _, errB := big.ParseFloat(string(b), 10, 1024, big.ToNearestEven)
	return errA == nil && errB == nil && p.Cmp(q) == 0
}
