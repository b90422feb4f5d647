// Package jsonpatch holds JSON values and applies RFC 6902 JSON Patch to
// them, whole or not at all.
//
// Decode reads one JSON value exactly (valid UTF-8, no member named twice,
// nothing after it, at most MaxDepth levels deep) into a Value: nil, bool,
// Number, string, *Array or *Object. A Value is never modified once made,
// so a patch is atomic by construction: Apply builds the result beside
// the input, sharing every part it did not touch, and when any operation
// fails it returns the input as it was and an *Error naming that
// operation. Numbers keep the text they were written in, so no value is
// rounded on its way through, and objects keep their members in order;
// Encode and Append write a Value back as compact JSON.
//
// DecodeOps reads a patch document into Ops. Pointer, ParsePointer and
// CheckPointer are RFC 6901 JSON Pointers; Equal is JSON equality as the
// "test" operation defines it; Size is about a value's length as JSON,
// known without writing it.
//
// It is the value layer of package agui and imports nothing of it.
package jsonpatch
