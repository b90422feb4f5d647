package jsonpatch

import (
	"errors"
	"fmt"
	"slices"
)

// Op is one RFC 6902 operation, read and checked for its shape by whoever
// decoded the patch.
type Op struct {
	Index int    // its position in the patch as sent, from 0
	Op    string // add, remove, replace, move, copy or test
	Path  string
	From  string // move and copy
	Value Value  // add, replace and test
}

// Error says why a patch did not apply: the first operation that failed,
// and why.
type Error struct {
	Index  int // of the operation, as sent
	Op     string
	Path   string
	Reason string
}

// Error is the operation, by its index, and the reason.
func (e *Error) Error() string {
	return fmt.Sprintf("operation %d (%s %s): %s", e.Index, e.Op, e.Path, e.Reason)
}

// The reasons an operation fails.
var (
	errMissing    = errors.New("the path does not exist")
	errNoIndex    = errors.New("no element at that index")
	errNotParent  = errors.New("the path does not lead into an object or array")
	errTestFailed = errors.New("test failed: the value differs")
)

// Apply applies ops to doc in order and returns the result, or an *Error
// naming the first operation that fails and why. It is atomic: doc is never changed, and a
// failure returns it as it was. maxSize bounds the result (see Size): a
// few "copy" operations could otherwise double a document again and again.
func Apply(doc Value, ops []Op, maxSize int) (Value, error) {
	next := doc
	for _, op := range ops {
		var err error
		next, err = apply(next, op)
		if err == nil && Size(next) > maxSize {
			err = fmt.Errorf("the result would be larger than %d KiB", maxSize>>10)
		}
		if err != nil {
			return doc, &Error{Index: op.Index, Op: op.Op, Path: op.Path, Reason: err.Error()}
		}
	}
	return next, nil
}

func apply(doc Value, op Op) (Value, error) {
	path, err := ParsePointer(op.Path)
	if err != nil {
		return nil, err
	}
	switch op.Op {
	case "add":
		return add(doc, path, op.Value)
	case "remove":
		return remove(doc, path)
	case "replace":
		return replace(doc, path, op.Value)
	case "test":
		v, ok := Resolve(doc, path)
		if !ok {
			return nil, errMissing
		}
		if !Equal(v, op.Value) {
			return nil, errTestFailed
		}
		return doc, nil
	case "move", "copy":
		from, err := ParsePointer(op.From)
		if err != nil {
			return nil, fmt.Errorf("from: %w", err)
		}
		v, ok := Resolve(doc, from)
		if !ok {
			return nil, fmt.Errorf("from: %w", errMissing)
		}
		if op.Op == "copy" {
			return add(doc, path, v)
		}
		if slices.Equal(from, path) {
			return doc, nil
		}
		if len(from) < len(path) && slices.Equal(from, path[:len(from)]) {
			return nil, errors.New("a value cannot be moved into itself")
		}
		if doc, err = remove(doc, from); err != nil {
			return nil, err
		}
		return add(doc, path, v)
	}
	return nil, fmt.Errorf("unknown op %q", op.Op)
}

// add sets a member, inserts into an array (or appends, at "-"), or
// replaces the whole document.
func add(doc Value, path Pointer, v Value) (Value, error) {
	if len(path) == 0 {
		return v, nil
	}
	return within(doc, path, func(parent Value, token string) (Value, error) {
		switch parent := parent.(type) {
		case *Object:
			return parent.with(token, v), nil
		case *Array:
			i := parent.Len()
			if token != "-" {
				var ok bool
				if i, ok = index(token, parent.Len()+1); !ok {
					return nil, errNoIndex
				}
			}
			return NewArray(slices.Insert(slices.Clone(parent.items), i, v)), nil
		}
		return nil, errNotParent
	})
}

func remove(doc Value, path Pointer) (Value, error) {
	if len(path) == 0 {
		return nil, errors.New("the whole document cannot be removed")
	}
	return within(doc, path, func(parent Value, token string) (Value, error) {
		switch parent := parent.(type) {
		case *Object:
			i := parent.find(token)
			if i < 0 {
				return nil, errMissing
			}
			return parent.without(i), nil
		case *Array:
			i, ok := index(token, parent.Len())
			if !ok {
				return nil, errNoIndex
			}
			return NewArray(slices.Delete(slices.Clone(parent.items), i, i+1)), nil
		}
		return nil, errNotParent
	})
}

func replace(doc Value, path Pointer, v Value) (Value, error) {
	if len(path) == 0 {
		return v, nil
	}
	return within(doc, path, func(parent Value, token string) (Value, error) {
		switch parent := parent.(type) {
		case *Object:
			if parent.find(token) < 0 {
				return nil, errMissing
			}
			return parent.with(token, v), nil
		case *Array:
			i, ok := index(token, parent.Len())
			if !ok {
				return nil, errNoIndex
			}
			items := slices.Clone(parent.items)
			items[i] = v
			return NewArray(items), nil
		}
		return nil, errNotParent
	})
}

// within rebuilds doc with the parent of path's last token changed by
// change, copying only the containers on the way down.
func within(doc Value, path Pointer, change func(parent Value, token string) (Value, error)) (Value, error) {
	if len(path) == 1 {
		return change(doc, path[0])
	}
	token, rest := path[0], path[1:]
	switch node := doc.(type) {
	case *Object:
		i := node.find(token)
		if i < 0 {
			return nil, errMissing
		}
		child, err := within(node.values[i], rest, change)
		if err != nil {
			return nil, err
		}
		return node.with(token, child), nil
	case *Array:
		i, ok := index(token, node.Len())
		if !ok {
			return nil, errMissing
		}
		child, err := within(node.items[i], rest, change)
		if err != nil {
			return nil, err
		}
		items := slices.Clone(node.items)
		items[i] = child
		return NewArray(items), nil
	}
	return nil, errMissing
}
