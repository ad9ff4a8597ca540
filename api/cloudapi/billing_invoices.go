package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// invoiceView is an Invoice as the reference shows it.
type invoiceView struct {
	BillingSource string           `json:"billing_source"`
	Date          string           `json:"date"`
	ID            uint64           `json:"id"`
	Label         string           `json:"label"`
	Subtotal      usd              `json:"subtotal"`
	Tax           usd              `json:"tax"`
	TaxSummary    []taxSummaryView `json:"tax_summary"`
	Total         usd              `json:"total"`
}

type taxSummaryView struct {
	Name string `json:"name"`
	Tax  usd    `json:"tax"`
}

func viewInvoice(inv cloudstore.Invoice) invoiceView {
	v := invoiceView{BillingSource: "akamai", Date: formatTime(inv.Date), ID: inv.ID, Label: inv.Label,
		Subtotal: usd(inv.SubtotalCents), Tax: usd(inv.TaxCents), Total: usd(inv.TotalCents), TaxSummary: []taxSummaryView{}}
	if inv.TaxName != "" {
		v.TaxSummary = append(v.TaxSummary, taxSummaryView{Name: inv.TaxName, Tax: usd(inv.TaxCents)})
	}
	return v
}

// invoiceItemView is an InvoiceItem as the reference shows it (unit_price is a string, as
// linodego reads it; region is null for credits).
type invoiceItemView struct {
	Amount    usd     `json:"amount"`
	From      string  `json:"from"`
	Label     string  `json:"label"`
	Quantity  int     `json:"quantity"`
	Region    *string `json:"region"`
	Tax       usd     `json:"tax"`
	To        string  `json:"to"`
	Total     usd     `json:"total"`
	Type      string  `json:"type"`
	UnitPrice string  `json:"unit_price"`
}

func viewInvoiceItem(it cloudstore.InvoiceItem) invoiceItemView {
	v := invoiceItemView{Amount: usd(it.AmountCents), From: formatTime(it.From), Label: it.Label, Quantity: it.Quantity,
		Tax: usd(it.TaxCents), To: formatTime(it.To), Total: usd(it.TotalCents), Type: it.Type, UnitPrice: it.UnitPrice}
	if it.Region != "" {
		v.Region = &it.Region
	}
	return v
}

// The reference marks no Invoice or InvoiceItem field filterable.
var (
	invoiceFields     = listing.Fields[cloudstore.Invoice]{}
	invoiceItemFields = listing.Fields[cloudstore.InvoiceItem]{}
)

// listInvoices lists the caller's invoices, oldest first (the order of every cloud list): the
// index order, so only the page's invoices are decoded.
func (a *api) listInvoices(c *fiber.Ctx) error {
	account := callerOf(c).User.AccountID
	return renderPaged(c, invoiceFields, viewInvoice,
		func(w func(int) (int, int)) ([]cloudstore.Invoice, int, error) {
			return a.Cloud.InvoicesPage(account, w)
		},
		func() ([]cloudstore.Invoice, error) { return a.Cloud.Invoices(account) })
}

// callerInvoice reads the caller's invoice named in the path.
func (a *api) callerInvoice(c *fiber.Ctx) (cloudstore.Invoice, error) {
	id, err := billingID(c, "invoiceId")
	if err != nil {
		return cloudstore.Invoice{}, err
	}
	return a.Cloud.Invoice(callerOf(c).User.AccountID, id)
}

func (a *api) getInvoice(c *fiber.Ctx) error {
	inv, err := a.callerInvoice(c)
	if err != nil {
		return err
	}
	return c.JSON(viewInvoice(inv))
}

func (a *api) listInvoiceItems(c *fiber.Ctx) error {
	inv, err := a.callerInvoice(c)
	if err != nil {
		return err
	}
	return renderList(c, inv.Items, invoiceItemFields, viewInvoiceItem)
}

// promotionView is a Promotion as the reference shows it: money as strings ("10.00").
type promotionView struct {
	CreditMonthlyCap         string `json:"credit_monthly_cap"`
	CreditRemaining          string `json:"credit_remaining"`
	Description              string `json:"description"`
	ExpireDt                 string `json:"expire_dt"`
	ImageURL                 string `json:"image_url"`
	ServiceType              string `json:"service_type"`
	Summary                  string `json:"summary"`
	ThisMonthCreditRemaining string `json:"this_month_credit_remaining"`
}

func viewPromotion(p cloudstore.Promotion) promotionView {
	return promotionView{
		CreditMonthlyCap: cloudstore.FormatCents(p.MonthlyCapCents), CreditRemaining: cloudstore.FormatCents(p.RemainingCents),
		Description: p.Description, ExpireDt: formatTime(p.Expires), ImageURL: p.ImageURL, ServiceType: p.ServiceType,
		Summary: p.Summary, ThisMonthCreditRemaining: cloudstore.FormatCents(p.ThisMonthCreditRemaining()),
	}
}

// addPromoCode redeems {promo_code} for the caller's account (unrestricted users only) and
// answers the Promotion as the account record shows it (this month's usage already counted).
func (a *api) addPromoCode(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	b.require("promo_code")
	code := b.str("promo_code")
	if err := b.err(); err != nil {
		return err
	}
	pr, err := a.Cloud.AddPromoCode(callerOf(c).User.AccountID, *code)
	if err != nil {
		return err
	}
	return c.JSON(viewPromotion(pr))
}
