package jsonpatch

import (
	"slices"
	"strings"
)

// Value is one JSON value: nil (null), bool, Number, string, *Array or
// *Object.
type Value = any

// Number is a JSON number as it was written. Equal compares numbers by
// value: 1, 1.0 and 1e0 are the same number.
type Number string

// Array is a JSON array. It is never modified once made.
type Array struct {
	items []Value
	size  int // Size of the whole array, kept so that limits cost nothing
}

// Object is a JSON object whose members keep their order. It is never
// modified once made.
type Object struct {
	names  []string
	values []Value
	index  map[string]int // by name, for objects too long to scan
	size   int
}

// The empty array and object: values are never modified, so one of each
// serves every reader.
var (
	emptyArray  = &Array{size: 2}
	emptyObject = &Object{size: 2}
)

// indexFrom is the member count past which an object keeps an index.
const indexFrom = 16

// NewArray makes an array of these items; it keeps the slice.
func NewArray(items []Value) *Array {
	if len(items) == 0 {
		return emptyArray
	}
	size := 2 + max(len(items)-1, 0)
	for _, v := range items {
		size += Size(v)
	}
	return &Array{items: items, size: size}
}

// NewObject makes an object of these members, in order; it keeps the
// slices. Names must be unique.
func NewObject(names []string, values []Value) *Object {
	if len(names) == 0 {
		return emptyObject
	}
	o := &Object{names: names, values: values, size: 2 + max(len(names)-1, 0)}
	for i, name := range names {
		o.size += len(name) + 3 + Size(values[i])
	}
	if len(names) > indexFrom {
		o.index = make(map[string]int, len(names))
		for i, name := range names {
			o.index[name] = i
		}
	}
	return o
}

// Len is the number of items.
func (a *Array) Len() int { return len(a.items) }

// At is the item at position i.
func (a *Array) At(i int) Value { return a.items[i] }

// Items returns the items; the caller must not change them.
func (a *Array) Items() []Value { return a.items }

// Len is the number of members.
func (o *Object) Len() int { return len(o.names) }

// Names returns the member names in order; the caller must not change them.
func (o *Object) Names() []string { return o.names }

// Get returns the member of this name.
func (o *Object) Get(name string) (Value, bool) {
	if i := o.find(name); i >= 0 {
		return o.values[i], true
	}
	return nil, false
}

func (o *Object) find(name string) int {
	if o.index != nil {
		if i, ok := o.index[name]; ok {
			return i
		}
		return -1
	}
	return slices.Index(o.names, name)
}

// with returns the object with the member set: replaced in place, or
// added at the end.
func (o *Object) with(name string, v Value) *Object {
	names, values := o.names, slices.Clone(o.values)
	if i := o.find(name); i >= 0 {
		values[i] = v
	} else {
		names = append(slices.Clip(names), name)
		values = append(values, v)
	}
	return NewObject(names, values)
}

// without returns the object without the member at position i.
func (o *Object) without(i int) *Object {
	return NewObject(slices.Delete(slices.Clone(o.names), i, i+1), slices.Delete(slices.Clone(o.values), i, i+1))
}

// Size is about how many bytes v takes as compact JSON. It costs nothing:
// arrays and objects keep theirs.
func Size(v Value) int {
	switch v := v.(type) {
	case nil:
		return 4
	case bool:
		if v {
			return 4
		}
		return 5
	case Number:
		return len(v)
	case string:
		return len(v) + 2 + strings.Count(v, `"`) + strings.Count(v, `\`)
	case *Array:
		return v.size
	case *Object:
		return v.size
	}
	return 0
}
