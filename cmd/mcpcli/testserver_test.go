package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testServerMain is the "testserver MODE" command of the CLI scripts: small
// servers that misbehave on purpose, or speak an older protocol.
func testServerMain() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: testserver exit|ask-forever|state-only|sampling|legacy|content|banner|chatty|big|cursor-loop|env|noisy|cached")
		os.Exit(2)
	}
	mode := os.Args[1]
	if mode == "exit" {
		// Read the first request, complain, and die before answering.
		bufio.NewReader(os.Stdin).ReadString('\n')
		fmt.Fprintln(os.Stderr, "loading config from /etc/weather.toml")
		fmt.Fprintln(os.Stderr, "fatal: database is locked")
		os.Exit(3)
	}
	if mode == "hostile" {
		hostileServer(os.Args[2])
		return
	}
	if mode == "lists" {
		listsServer(os.Args[2])
		return
	}
	if mode == "cursor-loop" || mode == "cursor-new" {
		cursorLoop(mode == "cursor-new")
		return
	}
	if mode == "noisy" {
		// A server that logs on stderr, as it should, escapes and all.
		fmt.Fprintln(os.Stderr, "noisy: starting \x1b[31mup\x1b[0m")
		fmt.Fprint(os.Stderr, "noisy: ready\r\n")
	}
	if mode == "banner" {
		// A log line on stdout, where only messages may go.
		fmt.Println("Weather server v2 listening on stdio")
	}
	if mode == "chatty" {
		// A server that logs on stdout all the time.
		for i := 0; i < 10; i++ {
			fmt.Printf("debug: tick %d\n", i)
		}
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	opts := &mcp.ServerOptions{}
	if mode == "cached" {
		opts.SetCacheable = cachedLists
	}
	if mode == "legacy" {
		opts.SupportedProtocolVersions = []string{"2025-11-25"}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "test-" + mode, Version: "0.1"}, opts)
	schema := json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)
	empty := json.RawMessage(`{"type":"object","properties":{}}`)
	ask := &mcp.ElicitParams{Mode: "form", Message: "once more?", RequestedSchema: schema}
	switch mode {
	case "ask-forever":
		srv.AddTool(&mcp.Tool{Name: "loop", InputSchema: empty}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"again": ask}}, nil
		})
	case "state-only":
		srv.AddTool(&mcp.Tool{Name: "busy", InputSchema: empty}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{RequestState: "try-later", InputRequests: mcp.InputRequestMap{}}, nil
		})
	case "sampling":
		srv.AddTool(&mcp.Tool{Name: "where", InputSchema: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.InputResponses == nil {
				// Asks for roots whatever the client declared.
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"dirs": &mcp.ListRootsParams{}}}, nil
			}
			r, _ := req.Params.InputResponses["dirs"].(*mcp.ListRootsResult)
			if r == nil {
				return nil, fmt.Errorf("no roots in the retry")
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%d roots", len(r.Roots))}}}, nil
		})
		srv.AddTool(&mcp.Tool{Name: "summarize", InputSchema: empty}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"llm": &mcp.CreateMessageParams{
				MaxTokens: 50, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "summarize"}}},
			}}}, nil
		})
	case "legacy":
		srv.AddTool(&mcp.Tool{Name: "where", InputSchema: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// Asks for roots whatever the client declared.
			res, err := req.Session.ListRoots(ctx, nil)
			if err != nil {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "no roots: " + err.Error()}}}, nil
			}
			var uris []string
			for _, r := range res.Roots {
				uris = append(uris, r.URI)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "roots: " + strings.Join(uris, " ")}}}, nil
		})
		srv.AddTool(&mcp.Tool{Name: "greet", InputSchema: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Your name?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"]}`)})
			if err != nil {
				return nil, err
			}
			if res.Action != "accept" {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "no greeting: " + res.Action}}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Hello, %v!", res.Content["name"])}}}, nil
		})
	case "content":
		srv.AddTool(&mcp.Tool{Name: "mixed", InputSchema: json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"},"ratio":{"type":"number"},"on":{"type":"boolean"},"tags":{"type":"array"},"opts":{"type":"object"},"name":{"type":"string"},"until":{"type":["integer","null"]},"either":{"type":["integer","string"]}},"additionalProperties":false}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{
					Content: []mcp.Content{
						&mcp.TextContent{Text: "args: " + string(req.Params.Arguments)},
						&mcp.ImageContent{MIMEType: "image/png", Data: make([]byte, 12*1024)},
						&mcp.ResourceLink{URI: "file:///tmp/report.txt", Name: "report", MIMEType: "text/plain"},
						&mcp.TextContent{Text: "evil \x1b]8;;http://evil.example\x07link\x1b]8;;\x07 \x1b[31mred\x1b[0m \u202eabc"},
					},
					StructuredContent: map[string]any{"total": 3},
				}, nil
			})
		srv.AddTool(&mcp.Tool{Name: "book", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"nights":{"type":"integer","minimum":1},"rooms":{"type":"array","items":{"type":"object","properties":{"beds":{"type":"integer"}}}}},"required":["city","nights"]}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var args map[string]any
				json.Unmarshal(req.Params.Arguments, &args)
				if args["city"] == nil || args["nights"] == nil {
					// As a server that validates its input refuses.
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid params: city and nights are required"}
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "booked: " + string(req.Params.Arguments)}}}, nil
			})
		srv.AddPrompt(&mcp.Prompt{Name: "plan", Arguments: []*mcp.PromptArgument{{Name: "goal", Required: true}, {Name: "style"}}},
			func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "plan " + req.Params.Arguments["goal"] + " " + req.Params.Arguments["style"]}}}}, nil
			})
		srv.AddTool(&mcp.Tool{Name: "hang", InputSchema: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done() // answers nothing, until told to stop
			return nil, ctx.Err()
		})
		srv.AddTool(&mcp.Tool{Name: "fail", InputSchema: empty}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "the disk is full"}}}, nil
		})
	case "mortal":
		// A server that can be made to die, and counts the calls of its
		// own process: a restart starts from 1.
		calls := 0
		srv.AddTool(&mcp.Tool{Name: "count", InputSchema: empty}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			calls++
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("call %d of this process", calls)}}}, nil
		})
		srv.AddTool(&mcp.Tool{Name: "die", InputSchema: empty}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "mortal: dying as asked")
			os.Exit(3)
			return nil, nil
		})
	case "banner", "noisy":
		srv.AddTool(&mcp.Tool{Name: "forecast", InputSchema: empty}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sunny"}}}, nil
		})
	case "big":
		srv.AddTool(&mcp.Tool{Name: "dump", InputSchema: empty}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// More than the go-sdk's default 16 MiB line limit.
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", 17<<20)}}}, nil
		})
	case "names":
		// Tools named to trip a shell script: a flag, and a bidi override.
		for _, name := range []string{"-x", "evil\u202etxt.exe"} {
			srv.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					var args struct{ Text string }
					json.Unmarshal(req.Params.Arguments, &args)
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("called %q with %q", req.Params.Name, args.Text)}}}, nil
				})
		}
	case "env":
		srv.AddTool(&mcp.Tool{Name: "whoami", InputSchema: empty}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			wd, _ := os.Getwd()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("GREETING=%s cwd=%s", os.Getenv("GREETING"), wd)}}}, nil
		})
		srv.AddTool(&mcp.Tool{Name: "getenv", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var args struct{ Name string }
				json.Unmarshal(req.Params.Arguments, &args)
				v, ok := os.LookupEnv(args.Name)
				if !ok {
					v = "(unset)"
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: args.Name + "=" + v}}}, nil
			})
	case "cached":
		addCachedTool(srv)
	default:
		fmt.Fprintf(os.Stderr, "testserver: unknown mode %q\n", mode)
		os.Exit(2)
	}
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(0)
	}
}

// cursorLoop is a hand-written server whose every list page points to the
// same next page: the go-sdk's server cannot be made to do that. With
// fresh, the tools pages never end instead: each has a new cursor, and as
// many tools as the argument after the mode says (one by default).
func cursorLoop(fresh bool) {
	perPage := 1
	if len(os.Args) > 2 {
		perPage, _ = strconv.Atoi(os.Args[2])
	}
	page := 0
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		var res string
		switch {
		case m.Method == "server/discover":
			res = `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"prompts":{},"resources":{}}}`
		case m.Method == "tools/list" && fresh:
			// A new cursor every time, and perPage tools on each page.
			page++
			tools := make([]string, perPage)
			for i := range tools {
				tools[i] = fmt.Sprintf(`{"name":"t%d_%d","inputSchema":{"type":"object"}}`, page, i)
			}
			res = fmt.Sprintf(`{"tools":[%s],"nextCursor":"page-%d"}`, strings.Join(tools, ","), page)
		case m.Method == "tools/list":
			res = `{"tools":[{"name":"t","inputSchema":{"type":"object"}}],"nextCursor":"again"}`
		case m.Method == "prompts/list":
			res = `{"prompts":[{"name":"p"}],"nextCursor":"again"}`
		case m.Method == "resources/list":
			res = `{"resources":[{"uri":"x://r","name":"r"}],"nextCursor":"again"}`
		default:
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`+"\n", m.ID)
			continue
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, res)
	}
}

// hostileServer is a hand-written server that answers server/discover,
// then answers tools/list the way how says: "logs", with a tool that
// logs at every level whatever it is asked; "nullid", an error with id
// null; "deep", a result nested 10,000 deep; "close", by closing its
// stdout and staying; "nolegacy" never answers server/discover and
// refuses initialize.
func hostileServer(how string) {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		if m.Method == "server/discover" && how == "nolegacy" {
			continue // too slow to answer it, as far as mcpcli can tell
		}
		if m.Method == "initialize" {
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"initialize is not supported"}}`+"\n", m.ID)
			continue
		}
		if m.Method == "server/discover" {
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"hostile","version":"1"}}}}`+"\n", m.ID)
			continue
		}
		switch how {
		case "batch":
			// The answer comes in a batch, behind a notification.
			if m.Method == "tools/list" {
				fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"batched","inputSchema":{"type":"object"}}]}}`+"\n", m.ID)
				continue
			}
			fmt.Printf(`[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched"}},{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"in a batch"}],"x-extra":"kept"}}]`+"\n", m.ID)
		case "logs":
			// Log messages at every level, whatever the client asked for.
			if m.Method == "tools/list" {
				fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"talk","inputSchema":{"type":"object"}}]}}`+"\n", m.ID)
				continue
			}
			for _, l := range []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", "chatter"} {
				fmt.Printf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":%q,"data":"at %s"}}`+"\n", l, l)
			}
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"said"}]}}`+"\n", m.ID)
		case "nullid":
			fmt.Println(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
		case "deep":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[],"x":%s%s}}`+"\n", m.ID, strings.Repeat("[", 10000), strings.Repeat("]", 10000))
		case "close":
			os.Stdout.Close()
			time.Sleep(time.Minute)
		}
	}
}

// listsServer is a hand-written 2026-07-28 server that declares tools,
// prompts and resources, and answers prompts/list, resources/list and
// resources/templates/list the way how says: "ask" with input_required
// (which no list may be answered with), "unknown" with -32601, "fail"
// with -32603. Its one tool, "echo", works. With "names", its tools and
// prompt have names holding an escape and invisible characters, and a
// call says which it got.
func listsServer(how string) {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		var body string
		switch {
		case how != "names":
		case m.Method == "tools/list":
			body = `"result":{"tools":[{"name":"evil\u001b[31mname","inputSchema":{"type":"object"}},{"name":"twin\u200b","inputSchema":{"type":"object"}},{"name":"twin\u200c","inputSchema":{"type":"object"}},{"name":"echo","inputSchema":{"type":"object"}}]}`
		case m.Method == "prompts/list":
			body = `"result":{"prompts":[{"name":"bad\u200bprompt"}]}`
		case m.Method == "tools/call" || m.Method == "prompts/get":
			got, _ := json.Marshal(fmt.Sprintf("got %q", m.Params.Name))
			if m.Method == "prompts/get" {
				body = fmt.Sprintf(`"result":{"messages":[{"role":"user","content":{"type":"text","text":%s}}]}`, got)
			} else {
				body = fmt.Sprintf(`"result":{"content":[{"type":"text","text":%s}]}`, got)
			}
		}
		if body == "" {
			switch m.Method {
			case "server/discover":
				body = `"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"prompts":{},"resources":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"lists","version":"1"}}}`
			case "initialize":
				body = `"error":{"code":-32600,"message":"initialize is not supported"}`
			case "tools/list":
				body = `"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}`
			case "tools/call":
				body = `"result":{"content":[{"type":"text","text":"echoed"}]}`
			case "prompts/list", "resources/list", "resources/templates/list":
				switch how {
				case "ask":
					body = `"result":{"resultType":"input_required","inputRequests":{"who":{"method":"elicitation/create","params":{"message":"Who asks?","requestedSchema":{"type":"object","properties":{}}}}}}`
				case "unknown":
					body = `"error":{"code":-32601,"message":"Method not found"}`
				default:
					body = `"error":{"code":-32603,"message":"the catalogue is offline"}`
				}
			default:
				body = `"error":{"code":-32601,"message":"Method not found"}`
			}
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,%s}`+"\n", m.ID, body)
	}
}
