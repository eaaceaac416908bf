package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpcli/mcpcli/internal/jsonpeek"
)

// MisplacedHeader finds an x-mcp-header annotation in a tool's inputSchema
// that is not on a property reached from the schema root through
// "properties" alone: one under items, allOf/anyOf/oneOf/not,
// if/then/else, $defs or a $ref target makes the tool invalid
// (streamable-http, "Schema Extension"). The go-sdk checks the annotations
// it finds along properties, and never looks anywhere else. The first one,
// in the server's order, is named in the error.
func MisplacedHeader(inputSchema json.RawMessage) error {
	if jsonpeek.IsNull(inputSchema) {
		return nil
	}
	return findMisplaced(inputSchema, nil, false)
}

func findMisplaced(v []byte, path []string, onProperty bool) error {
	if len(v) == 0 {
		return nil
	}
	switch v[0] {
	case '{':
		var err error
		jerr := jsonpeek.Object(v, func(k string, val []byte) bool {
			switch {
			case k == "x-mcp-header" && !onProperty:
				where := "the schema root"
				if len(path) > 0 {
					where = strings.Join(path, ".")
				}
				err = fmt.Errorf("x-mcp-header at %s is not on a property reached through \"properties\" alone", where)
			case k == "properties" && (onProperty || len(path) == 0) && len(val) > 0 && val[0] == '{':
				_ = jsonpeek.Object(val, func(p string, pv []byte) bool {
					err = findMisplaced(pv, append(path, "properties", p), true)
					return err == nil
				})
			default:
				err = findMisplaced(val, append(path, k), false)
			}
			return err == nil
		})
		if err == nil && jerr != nil {
			return nil // not JSON the go-sdk would have decoded either
		}
		return err
	case '[':
		i := 0
		var err error
		_ = jsonpeek.Array(v, func(e []byte) bool {
			err = findMisplaced(e, append(path, strconv.Itoa(i)), false)
			i++
			return err == nil
		})
		return err
	}
	return nil
}
