package proto

import (
	"math"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// encodeValue writes any JSON value as a google.protobuf.Value. A number
// becomes a double, so one the double does not give back (an integer
// beyond 2^53, more digits than a double holds) is refused.
func encodeValue(b []byte, v *node, ptr string) ([]byte, error) {
	switch v.kind {
	case 'n':
		b = protowire.AppendTag(b, nullValue, protowire.VarintType)
		return protowire.AppendVarint(b, 0), nil
	case 't', 'f':
		b = protowire.AppendTag(b, boolValue, protowire.VarintType)
		return protowire.AppendVarint(b, protowire.EncodeBool(v.kind == 't')), nil
	case '"':
		b = protowire.AppendTag(b, stringValue, protowire.BytesType)
		return protowire.AppendString(b, v.text), nil
	case '0':
		f, err := strconv.ParseFloat(v.text, 64)
		back := string(appendNumber(nil, f))
		if err != nil || math.IsInf(f, 0) || !sameNumber(v.text, back) {
			return b, cannot(ptr, v.text+" does not survive a double: it would read back as "+back)
		}
		b = protowire.AppendTag(b, numberValue, protowire.Fixed64Type)
		return protowire.AppendFixed64(b, math.Float64bits(f)), nil
	case '{':
		return appendMessage(b, structValue, func(b []byte) ([]byte, error) { return encodeStruct(b, v, ptr) })
	}
	return appendMessage(b, listValue, func(b []byte) ([]byte, error) {
		var err error
		for i, item := range v.items {
			at := ptr + "/" + strconv.Itoa(i)
			if b, err = appendMessage(b, 1, func(b []byte) ([]byte, error) { return encodeValue(b, item, at) }); err != nil {
				return b, err
			}
		}
		return b, nil
	})
}

// encodeStruct writes an object as a google.protobuf.Struct: a map entry
// per member, key 1 and value 2.
func encodeStruct(b []byte, obj *node, ptr string) ([]byte, error) {
	var err error
	for _, mb := range obj.members {
		b, err = appendMessage(b, 1, func(b []byte) ([]byte, error) {
			b = protowire.AppendTag(b, 1, protowire.BytesType)
			b = protowire.AppendString(b, mb.name)
			return appendMessage(b, 2, func(b []byte) ([]byte, error) {
				return encodeValue(b, mb.value, ptr+"/"+jsonpatch.EscapeToken(mb.name))
			})
		})
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// sameNumber reports whether two JSON numbers are the same number, however
// written: 1, 1.0 and 1e0 are; 0.1 and 0.10000000000000001 are not.
func sameNumber(a, b string) bool {
	an, ad, ae, aok := decimal(a)
	bn, bd, be, bok := decimal(b)
	if !aok || !bok {
		return false
	}
	if ad == "" || bd == "" {
		return ad == bd // zero, of either sign
	}
	return an == bn && ad == bd && ae == be
}

// decimal splits a JSON number into its sign, its significant digits
// (no leading or trailing zeros) and the exponent of the last of them.
func decimal(s string) (neg bool, digits string, exp int, ok bool) {
	neg = strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, e, hasExp := strings.Cut(strings.ToLower(s), "e")
	if hasExp {
		var err error
		if exp, err = strconv.Atoi(strings.TrimPrefix(e, "+")); err != nil {
			return false, "", 0, false
		}
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits = strings.TrimLeft(whole+frac, "0")
	exp -= len(frac)
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	return neg, trimmed, exp, true
}
