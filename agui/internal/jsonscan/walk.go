package jsonscan

import "iter"

// Members splits a JSON object already found valid into its members:
// each name as its quoted JSON string and each value as its JSON, both
// within object. Valid JSON needs no checking here, only its structure
// followed: strings (whose escapes may hide a quote), brackets, and the
// commas and colons between.
func Members(object []byte) iter.Seq2[[]byte, []byte] {
	return func(yield func(name, value []byte) bool) {
		items(object, '}', func(i int) int {
			nameEnd := PastString(object, i)
			start := PastSpace(object, PastSpace(object, nameEnd)+1) // past ':'
			end := PastValue(object, start)
			if !yield(object[i:nameEnd], object[start:end]) {
				return -1
			}
			return end
		})
	}
}

// Elements splits a JSON array already found valid into its elements,
// each as its JSON within array, as Members splits an object.
func Elements(array []byte) iter.Seq[[]byte] {
	return func(yield func(element []byte) bool) {
		items(array, ']', func(i int) int {
			end := PastValue(array, i)
			if !yield(array[i:end]) {
				return -1
			}
			return end
		})
	}
}

// items walks the object or array that opens data up to its closing
// byte, handing item the index where each member or element starts;
// item gives back the index just past it, or -1 to stop.
func items(data []byte, closing byte, item func(start int) int) {
	i := PastSpace(data, 0) + 1 // past '{' or '['
	for {
		i = PastSpace(data, i)
		switch data[i] {
		case closing:
			return
		case ',':
			i = PastSpace(data, i+1)
		}
		if i = item(i); i < 0 {
			return
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
