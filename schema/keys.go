package schema

import (
	"fmt"
	"strings"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/internal/lazy"
)

// One way to read a schema's keys. The validator (jsonschema-go) reads a
// schema with encoding/json: a key is a keyword whatever its case, and
// the last of a repeated keyword counts, though every one of them must
// decode. The form parser reads it the same way. But the go-sdk, before it
// hands a 2025-11-25 elicitation over, decodes the schema into a map
// (keeping the last of a repeated key) and encodes it again, keys sorted,
// for its own validator: "type" and "Type" then come in another order, and
// an earlier "required": 1 is gone. So the same bytes can mean two
// schemas. A schema that gives a keyword twice, exactly or in two
// spellings, is refused: the person can decline or cancel, never answer
// a form that each reader reads differently.

// keywords are the JSON Schema keywords the validator knows, lower-cased:
// the JSON names of jsonschema.Schema's fields, and the few more mcpcli
// reads. The list is written out, not read off the type by reflection at
// the first schema of every run (a fifth of a millisecond):
// TestKeywordsAreTheValidators reads it off the type and fails when a new
// jsonschema-go adds or renames one.
var keywords = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"$anchor":               "$anchor",
		"$comment":              "$comment",
		"$defs":                 "$defs",
		"$dynamicanchor":        "$dynamicAnchor",
		"$dynamicref":           "$dynamicRef",
		"$id":                   "$id",
		"$ref":                  "$ref",
		"$schema":               "$schema",
		"$vocabulary":           "$vocabulary",
		"additionalitems":       "additionalItems",
		"additionalproperties":  "additionalProperties",
		"allof":                 "allOf",
		"anyof":                 "anyOf",
		"const":                 "const",
		"contains":              "contains",
		"contentencoding":       "contentEncoding",
		"contentmediatype":      "contentMediaType",
		"contentschema":         "contentSchema",
		"default":               "default",
		"definitions":           "definitions",
		"dependencies":          "dependencies",
		"dependentrequired":     "dependentRequired",
		"dependentschemas":      "dependentSchemas",
		"deprecated":            "deprecated",
		"description":           "description",
		"else":                  "else",
		"enum":                  "enum",
		"enumnames":             "enumNames",
		"examples":              "examples",
		"exclusivemaximum":      "exclusiveMaximum",
		"exclusiveminimum":      "exclusiveMinimum",
		"format":                "format",
		"if":                    "if",
		"items":                 "items",
		"maxcontains":           "maxContains",
		"maximum":               "maximum",
		"maxitems":              "maxItems",
		"maxlength":             "maxLength",
		"maxproperties":         "maxProperties",
		"mincontains":           "minContains",
		"minimum":               "minimum",
		"minitems":              "minItems",
		"minlength":             "minLength",
		"minproperties":         "minProperties",
		"multipleof":            "multipleOf",
		"not":                   "not",
		"oneof":                 "oneOf",
		"pattern":               "pattern",
		"patternproperties":     "patternProperties",
		"prefixitems":           "prefixItems",
		"properties":            "properties",
		"propertynames":         "propertyNames",
		"readonly":              "readOnly",
		"required":              "required",
		"then":                  "then",
		"title":                 "title",
		"type":                  "type",
		"unevaluateditems":      "unevaluatedItems",
		"unevaluatedproperties": "unevaluatedProperties",
		"uniqueitems":           "uniqueItems",
		"writeonly":             "writeOnly",
	}
}}

// Keywords whose values are schemas, maps of them, or lists of them.
var (
	schemaKeywords = set("items", "additionalItems", "additionalProperties", "contains", "propertyNames", "not",
		"if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
	schemaMapKeywords  = set("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
	schemaListKeywords = set("allOf", "anyOf", "oneOf", "prefixItems", "items")
)

func set(ks ...string) map[string]bool {
	m := map[string]bool{}
	for _, k := range ks {
		m[k] = true
	}
	return m
}

// keyword is the keyword k names for the validator (its case folded as
// encoding/json folds it), or "".
func keyword(k string) string {
	if kw, ok := keywords.Get()[strings.ToLower(k)]; ok && strings.EqualFold(k, kw) {
		return kw
	}
	for _, kw := range keywords.Get() { // folds ToLower misses: ſ for s, K for k
		if strings.EqualFold(k, kw) {
			return kw
		}
	}
	return ""
}

// KeyError is a schema that gives a keyword twice, or a property (of
// properties, $defs...) twice.
type KeyError struct {
	Path        []string // where, from the schema's top: property names and keywords
	First, Then string   // the two keys, as written
	Name        bool     // the key is a name (of a property...), not a keyword
}

func (e *KeyError) Error() string {
	where := ""
	if len(e.Path) > 0 {
		where = " in " + strings.Join(e.Path, "/")
	}
	if e.Name {
		return fmt.Sprintf("gives %q twice%s, which readers read differently", e.First, where)
	}
	if e.First == e.Then {
		return fmt.Sprintf("gives the keyword %q twice%s, which readers read differently", e.First, where)
	}
	return fmt.Sprintf("gives the keyword %q twice%s, as %q and %q, which readers read differently", keyword(e.First), where, e.First, e.Then)
}

// maxKeyDepth bounds how deep schemas within schemas are looked at; the
// validator refuses deeper nesting anyway.
const maxKeyDepth = 200

// repeatedKeyword finds a keyword given twice in the schema raw or in a
// schema within it, or returns nil. What is not an object is no schema
// to look at (true, false, a value).
func repeatedKeyword(raw []byte) *KeyError { return repeatedIn(raw, nil, 0) }

func repeatedIn(raw []byte, path []string, depth int) *KeyError {
	if depth > maxKeyDepth {
		return nil
	}
	keys, values, err := jsonpeek.Members(raw)
	if err != nil {
		return nil
	}
	seen := map[string]string{}
	for i, k := range keys {
		kw := keyword(k)
		if kw == "" {
			continue
		}
		if first, dup := seen[kw]; dup {
			return &KeyError{Path: path, First: first, Then: k}
		}
		seen[kw] = k
		at := append(path[:len(path):len(path)], k)
		v := values[i]
		if schemaKeywords[kw] {
			if e := repeatedIn(v, at, depth+1); e != nil {
				return e
			}
		}
		if schemaMapKeywords[kw] {
			names, subs, err := jsonpeek.Members(v)
			if err != nil {
				continue
			}
			given := map[string]bool{}
			for j, name := range names {
				if given[name] {
					return &KeyError{Path: at, First: name, Then: name, Name: true}
				}
				given[name] = true
				if e := repeatedIn(subs[j], append(at[:len(at):len(at)], name), depth+1); e != nil {
					return e
				}
			}
		}
		if schemaListKeywords[kw] {
			j := 0
			var found *KeyError
			_ = jsonpeek.Array(v, func(sub []byte) bool {
				found = repeatedIn(sub, append(at[:len(at):len(at)], fmt.Sprint(j)), depth+1)
				j++
				return found == nil
			})
			if found != nil {
				return found
			}
		}
	}
	return nil
}
