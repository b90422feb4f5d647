package jsonpatch

import (
	"math/big"
	"strconv"
)

// Equal is JSON equality as RFC 6902 section 4.6 defines it for "test":
// numbers by their value (1 equals 1.0, -0 equals 0), objects whatever the
// order of their members, arrays item by item.
func Equal(a, b Value) bool {
	switch a := a.(type) {
	case *Object:
		b, ok := b.(*Object)
		if !ok || a.Len() != b.Len() {
			return false
		}
		for i, name := range a.names {
			w, ok := b.Get(name)
			if !ok || !Equal(a.values[i], w) {
				return false
			}
		}
		return true
	case *Array:
		b, ok := b.(*Array)
		if !ok || a.Len() != b.Len() {
			return false
		}
		for i := range a.items {
			if !Equal(a.items[i], b.items[i]) {
				return false
			}
		}
		return true
	case Number:
		b, ok := b.(Number)
		return ok && sameNumber(a, b)
	default:
		return a == b // string, bool or nil
	}
}

// sameNumber compares two JSON numbers by value: exactly as float64s when
// both fit, else as arbitrary-precision decimals (1e400 is a number too).
func sameNumber(a, b Number) bool {
	x, errA := strconv.ParseFloat(string(a), 64)
	y, errB := strconv.ParseFloat(string(b), 64)
	if errA == nil && errB == nil {
		return x == y
	}
	p, _, errA := big.ParseFloat(string(a), 10, 1024, big.ToNearestEven)
	q, _, errB := big.ParseFloat(string(b), 10, 1024, big.ToNearestEven)
	return errA == nil && errB == nil && p.Cmp(q) == 0
}
