package controlclient_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// start runs a sandbox on a free port with the default fixtures.
func start() (*app.App, func()) {
	a, err := app.Open(sandbox.Config{Addr: "127.0.0.1:0"}, nil)
	if err != nil {
		panic(err)
	}
	a.Start()
	return a, func() { _ = a.Close(context.Background()) }
}

// Register an add-on, emit an event and read the contract report.
func Example() {
	a, stop := start()
	defer stop()
	ctx := context.Background()
	c := controlclient.New(a.ListenURL(), nil)

	addon, err := c.PutAddon(ctx, 1001, "my-addon", controlclient.AddonConfig{
		InstallURL: "http://127.0.0.1:9090/install",
		ClientID:   "my-client",
		Endpoints:  []string{"GetListOfOrders"},
		Approved:   true,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(addon.Name, addon.ClientID, addon.Endpoints[0].Endpoint, addon.Endpoints[0].Approved)

	ev, err := c.Emit(ctx, controlclient.Event{EshopID: 1001, Event: "order:create", Instance: "2025000001"})
	if err != nil {
		panic(err)
	}
	fmt.Println(ev.Event, ev.Instance)

	report, err := c.Report(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println("clean:", report.Clean)
	// Output:
	// my-addon my-client GetListOfOrders true
	// order:create 2025000001
	// clean: true
}

// A refusal comes back as an *api.AnswerError with the envelope's code.
func ExampleClient_Install() {
	a, stop := start()
	defer stop()
	c := controlclient.New(a.ListenURL(), nil)

	_, err := c.Install(context.Background(), 1001, "nobody")
	var ae *api.AnswerError
	if errors.As(err, &ae) {
		fmt.Println(ae.Status, ae.Code, ae.Instance)
	}
	// Output: 404 not-found nobody
}

// Add a fault, see it listed with its counters, and remove it.
func ExampleClient_AddFault() {
	a, stop := start()
	defer stop()
	ctx := context.Background()
	c := controlclient.New(a.ListenURL(), nil)

	f, err := c.AddFault(ctx, map[string]any{
		"name":    "busy-orders",
		"match":   map[string]any{"operation": "GetListOfOrders", "nth": 1},
		"respond": map[string]any{"status": 429, "retryAfter": "1s"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(f.ID, f.Name, f.Kind, f.Hits)
	if err := c.RemoveFault(ctx, f.ID); err != nil {
		panic(err)
	}
	fs, err := c.Faults(ctx)
	if err != nil {
		panic(err)
	}
	runtime := 0
	for _, f := range fs.Faults {
		if f.Source == "runtime" {
			runtime++
		}
	}
	fmt.Println("runtime faults left:", runtime)
	// Output:
	// f1 busy-orders respond 0
	// runtime faults left: 0
}
