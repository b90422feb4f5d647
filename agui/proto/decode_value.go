package proto

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"google.golang.org/protobuf/encoding/protowire"
)

// google.protobuf.Value, Struct and ListValue: how the binary schema holds
// any JSON value. Value's oneof, by field number:
const (
	nullValue   = 1
	numberValue = 2 // a double
	stringValue = 3
	boolValue   = 4
	structValue = 5
	listValue   = 6
)

var valueArms = [...]struct {
	name string
	wire protowire.Type
}{
	nullValue:   {"null_value", protowire.VarintType},
	numberValue: {"number_value", protowire.Fixed64Type},
	stringValue: {"string_value", protowire.BytesType},
	boolValue:   {"bool_value", protowire.VarintType},
	structValue: {"struct_value", protowire.BytesType},
	listValue:   {"list_value", protowire.BytesType},
}

// value writes a Value: the last kind given, as a oneof keeps; a struct or
// a list given again in a row merges with the one before. held is false for
// a Value holding no kind, which @ag-ui/proto reads as undefined: no member
// in an object, null in a list.
func (d *decoder) value(b []byte, at int) (held bool, err error) {
	var arm protowire.Number
	var last occurrence
	run := 0 // where the current arm's run of occurrences starts
	for off := 0; off < len(b); {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return false, wireError(at+off, "", n)
		}
		tagAt := off
		off += n
		if num < nullValue || num > listValue {
			if n = protowire.ConsumeFieldValue(num, typ, b[off:]); n < 0 {
				return false, wireError(at+off, "", n)
			}
			off += n
			continue
		}
		if want := valueArms[num].wire; typ != want {
			return false, wrongWire(at+tagAt, valueArms[num].name, typ, want)
		}
		if num != arm {
			arm, run, last.n = num, tagAt, 0
		}
		last.n++
		last.at = at + off
		switch typ {
		case protowire.VarintType:
			last.v, n = protowire.ConsumeVarint(b[off:])
		case protowire.Fixed64Type:
			last.v, n = protowire.ConsumeFixed64(b[off:])
		default:
			last.b, n = protowire.ConsumeBytes(b[off:])
			last.at += n - len(last.b)
		}
		if n < 0 {
			return false, wireError(at+off, valueArms[num].name, n)
		}
		off += n
	}
	switch arm {
	case 0:
		return false, nil
	case nullValue:
		d.out = append(d.out, "null"...)
	case numberValue:
		f := math.Float64frombits(last.v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			// JSON.stringify writes null for these: a different value.
			return false, bad(last.at, "number_value", strconv.FormatFloat(f, 'g', -1, 64)+", which no JSON number is")
		}
		d.out = appendNumber(d.out, f)
	case stringValue:
		err = d.str(last.b, last.at)
	case boolValue:
		d.out = strconv.AppendBool(d.out, last.v != 0)
	default:
		v, vat := last.b, last.at
		if last.n > 1 {
			v, vat = d.joined(b[run:], arm, at+run)
		}
		if arm == structValue {
			err = d.structValue(v, vat)
		} else {
			err = d.listValue(v, vat)
		}
	}
	if err != nil {
		return false, within(err, valueArms[arm].name)
	}
	return true, nil
}

// holds reports whether a Value's bytes give it a kind; value checks the
// rest when it writes it.
func holds(b []byte) bool {
	for len(b) > 0 {
		num, _, n := protowire.ConsumeField(b)
		if n < 0 || (num >= nullValue && num <= listValue) {
			return true // what is wrong with it, value says
		}
		b = b[n:]
	}
	return false
}

// entry is one member of a Struct.
type entry struct {
	key, val     []byte
	keyAt, valAt int
}

// structValue writes a Struct: a map, so a key given twice keeps its last
// value; an entry whose value holds nothing is no member, as in
// @ag-ui/proto.
func (d *decoder) structValue(b []byte, at int) error {
	var buf [16]entry
	entries := buf[:0]
	for off := 0; off < len(b); {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return wireError(at+off, "", n)
		}
		tagAt := off
		off += n
		if num != 1 {
			if n = protowire.ConsumeFieldValue(num, typ, b[off:]); n < 0 {
				return wireError(at+off, "", n)
			}
			off += n
			continue
		}
		if typ != protowire.BytesType {
			return wrongWire(at+tagAt, "fields", typ, protowire.BytesType)
		}
		v, n := protowire.ConsumeBytes(b[off:])
		if n < 0 {
			return wireError(at+off, "fields", n)
		}
		e, err := d.readEntry(v, at+off+n-len(v))
		if err != nil {
			return within(err, "fields")
		}
		if e.val != nil && holds(e.val) {
			if len(entries) == len(buf) { // past the room on the stack: room for the rest, no more (a frame of tiny entries is millions)
				entries = append(make([]entry, 0, len(buf)+count1(b[tagAt:])), entries...)
			}
			entries = append(entries, e)
		}
		off += n
	}
	if err := d.open('{'); err != nil {
		return err
	}
	var later []bool // for a large Struct, whether a later entry has each one's key
	if len(entries) > 32 {
		later = shadowedAll(entries)
	}
	for i, e := range entries {
		if later != nil && later[i] || later == nil && shadowed(entries, i) {
			continue
		}
		d.item()
		if !utf8.Valid(e.key) {
			return bad(e.keyAt+invalidAt(e.key), "fields.key", "not valid UTF-8, which a proto3 string must be")
		}
		if err := d.room(len(e.key) + 3); err != nil {
			return err
		}
		d.out = appendQuoted(d.out, e.key)
		d.out = append(d.out, ':')
		if _, err := d.value(e.val, e.valAt); err != nil {
			return within(err, "fields["+strconv.Quote(string(e.key))+"]")
		}
	}
	d.close('}')
	return nil
}

// shadowed reports whether a later entry has entry i's key.
func shadowed(entries []entry, i int) bool {
	for _, e := range entries[i+1:] {
		if string(e.key) == string(entries[i].key) {
			return true
		}
	}
	return false
}

// shadowedAll is shadowed for every entry, sorting their places by key
// (a map keyed by them made a string of every key).
func shadowedAll(entries []entry) []bool {
	order := make([]int32, len(entries))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return bytes.Compare(entries[a].key, entries[b].key) })
	later := make([]bool, len(entries))
	for i := 1; i < len(order); i++ {
		if bytes.Equal(entries[order[i-1]].key, entries[order[i]].key) {
			later[order[i-1]] = true // sorted stably: the earlier of the two
		}
	}
	return later
}

// count1 is how many times field 1 comes in a message: a Struct's entries.
func count1(b []byte) int {
	n := 0
	for off := 0; off < len(b); {
		num, typ, m := protowire.ConsumeField(b[off:])
		if m < 0 {
			return n // structValue says what is wrong
		}
		if num == 1 && typ == protowire.BytesType {
			n++
		}
		off += m
	}
	return n
}

// readEntry reads a Struct's map entry: key 1, value 2; the last key, the
// values merged.
func (d *decoder) readEntry(b []byte, at int) (e entry, err error) {
	values := 0
	for off := 0; off < len(b); {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return e, wireError(at+off, "", n)
		}
		tagAt := off
		off += n
		if num != 1 && num != 2 {
			if n = protowire.ConsumeFieldValue(num, typ, b[off:]); n < 0 {
				return e, wireError(at+off, "", n)
			}
			off += n
			continue
		}
		name := "key"
		if num == 2 {
			name = "value"
		}
		if typ != protowire.BytesType {
			return e, wrongWire(at+tagAt, name, typ, protowire.BytesType)
		}
		v, n := protowire.ConsumeBytes(b[off:])
		if n < 0 {
			return e, wireError(at+off, name, n)
		}
		if num == 1 {
			e.key, e.keyAt = v, at+off+n-len(v)
		} else {
			e.val, e.valAt = v, at+off+n-len(v)
			values++
		}
		off += n
	}
	if values > 1 {
		e.val, e.valAt = d.joined(b, 2, at)
	}
	return e, nil
}

// listValue writes a ListValue; an item holding nothing is null, as
// JSON.stringify writes an undefined item.
func (d *decoder) listValue(b []byte, at int) error {
	if err := d.open('['); err != nil {
		return err
	}
	i := 0
	for off := 0; off < len(b); {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return wireError(at+off, "", n)
		}
		tagAt := off
		off += n
		if num != 1 {
			if n = protowire.ConsumeFieldValue(num, typ, b[off:]); n < 0 {
				return wireError(at+off, "", n)
			}
			off += n
			continue
		}
		if typ != protowire.BytesType {
			return wrongWire(at+tagAt, "values", typ, protowire.BytesType)
		}
		v, n := protowire.ConsumeBytes(b[off:])
		if n < 0 {
			return wireError(at+off, "values", n)
		}
		if err := d.room(0); err != nil { // nulls, numbers and booleans ask no room of their own
			return err
		}
		d.item()
		held, err := d.value(v, at+off+n-len(v))
		if err != nil {
			return within(withinItem(err, i), "values")
		}
		if !held {
			d.out = append(d.out, "null"...)
		}
		i++
		off += n
	}
	d.close(']')
	return nil
}

// appendNumber writes a double as JavaScript does (Number.prototype.toString,
// which JSON.stringify uses): the shortest digits that read back as f, in
// exponent form below 1e-6 and from 1e21; -0 as 0.
func appendNumber(b []byte, f float64) []byte {
	if f == 0 {
		return append(b, '0')
	}
	format := byte('f')
	if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // 1e-07 is 1e-7 in JavaScript
		b = b[:n-1]
	}
	return b
}

// appendQuoted writes valid UTF-8 as a JSON string.
func appendQuoted(b, s []byte) []byte {
	b, _ = jsontext.AppendQuote(b, s)
	return b
}
