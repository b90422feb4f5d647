package jsonscan

import "iter"

// Members splits a JSON object already found valid into its members:
// each name as its quoted JSON string and each value as its JSON, both
// within object. Valid JSON needs no checking here, only its structure
// followed: strings (whose escapes may hide a quote), brackets, and the
// commas and colons between.
func Members(object []byte) iter.Seq2[[]byte, []byte] {
	return func(yield func(name, value []byte) bool) {
		i := PastSpace(object, 0) + 1 // past '{'
		for {
			i = PastSpace(object, i)
			switch object[i] {
			case '}':
				return
			case ',':
				i = PastSpace(object, i+1)
			}
			nameEnd := PastString(object, i)
			start := PastSpace(object, PastSpace(object, nameEnd)+1) // past ':'
			end := PastValue(object, start)
			if !yield(object[i:nameEnd], object[start:end]) {
				return
			}
			i = end
		}
	}
}

// Elements splits a JSON array already found valid into its elements,
// each as its JSON within array, as Members splits an object.
func Elements(array []byte) iter.Seq[[]byte] {
	return func(yield func(element []byte) bool) {
		i := PastSpace(array, 0) + 1 // past '['
		for {
			i = PastSpace(array, i)
			switch array[i] {
			case ']':
				return
			case ',':
				i = PastSpace(array, i+1)
			}
			end := PastValue(array, i)
			if !yield(array[i:end]) {
				return
			}
			i = end
		}
	}
}

// PastSpace is the index of the first byte from i that is not JSON white
// space.
func PastSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// PastString is the index just past the valid string that opens at i.
func PastString(data []byte, i int) int {
	for i++; data[i] != '"'; i++ {
		if data[i] == '\\' {
			i++ // the escaped byte, a quote perhaps
		}
	}
	return i + 1
}

// PastValue is the index just past the valid value that starts at i.
func PastValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return PastString(data, i)
	case '{', '[':
		for level := 0; ; {
			switch data[i] {
			case '"':
				i = PastString(data, i)
				continue
			case '{', '[':
				level++
			case '}', ']':
				if level--; level == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	// A number, true, false or null: up to what follows it.
	for i < len(data) && data[i] != ',' && data[i] != '}' && data[i] != ']' &&
		data[i] != ' ' && data[i] != '\t' && data[i] != '\n' && data[i] != '\r' {
		i++
	}
	return i
}
