// Package jsonscan reads JSON's bytes without a decoder: Object and Valid
// check JSON as the decoder (jsontext) does by default, in one pass, for
// the small values a stream carries; the walks (Members, Elements,
// PastValue) follow the structure of JSON already found valid. Its
// readers only vouch: where they cannot, the caller has the decoder read
// the value, and say what is wrong with it.
package jsonscan
