// The one script of the link page (docs/checkout.md, Payment link pages; docs/decisions.md, Readings of the contract): with JavaScript the buyer gets one page, the
// step form is hidden, and the installment table follows the card number as it is typed (POST
// /l/{token}/options with the first 8 digits). It is inlined under the page's nonce, builds the
// table with DOM calls (no innerHTML), and reads every URL from the form's data attribute.
// Without JavaScript none of this runs and the step forms do the same work.

export const LINK_PAGE_SCRIPT = String.raw`(function () {
  var stepForm = document.getElementById("bin-form");
  var form = document.getElementById("pay-form");
  if (!stepForm || !form || !window.fetch) return;
  var pan = document.getElementById("pan");
  var box = document.getElementById("options");
  var status = document.getElementById("options-status");
  var submit = document.getElementById("pay-submit");
  var url = form.getAttribute("data-options-url");
  var MESSAGES = {
    empty: "Bu kartla bu ödeme yapılamıyor. Lütfen başka bir kart deneyin.",
    400: "Kart numarasını kontrol edin.",
    403: "Bu kart bu ödemede kullanılamıyor. Lütfen başka bir kart deneyin.",
    409: "Bu bağlantı artık ödenemiyor. Lütfen sayfayı yenileyin.",
    429: "Çok fazla deneme yapıldı. Lütfen biraz sonra yeniden deneyin.",
    other: "Taksit seçenekleri alınamadı. Lütfen yeniden deneyin."
  };
  var shown = "";
  var seq = 0;
  stepForm.hidden = true;
  form.hidden = false;

  function money(kurus) {
    var s = String(kurus);
    while (s.length < 3) s = "0" + s;
    return s.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ".") + "," + s.slice(-2) + " TL";
  }
  function countText(count) {
    return count > 1 ? count + " taksit" : "Tek çekim";
  }
  function clear(message) {
    box.replaceChildren();
    submit.disabled = true;
    status.textContent = message;
  }
  function render(options) {
    var previous = form.querySelector("input[name=installment]:checked");
    var keep = previous ? previous.value : null;
    var fieldset = document.createElement("fieldset");
    var legend = document.createElement("legend");
    legend.textContent = "Taksit seçenekleri";
    fieldset.appendChild(legend);
    options.forEach(function (option) {
      var id = "installment-" + option.installmentCount;
      var row = document.createElement("div");
      row.className = "option";
      var input = document.createElement("input");
      input.type = "radio";
      input.name = "installment";
      input.id = id;
      input.value = String(option.installmentCount);
      input.required = true;
      input.checked = input.value === keep;
      var label = document.createElement("label");
      label.htmlFor = id;
      var count = document.createElement("span");
      count.textContent = countText(option.installmentCount);
      var total = document.createElement("span");
      total.className = "total";
      total.textContent = money(option.totalAmount);
      label.append(count, total);
      row.append(input, label);
      fieldset.appendChild(row);
    });
    if (!fieldset.querySelector("input:checked")) fieldset.querySelector("input").checked = true;
    box.replaceChildren(fieldset);
    submit.disabled = false;
    status.textContent = options.length === 1 ? "1 seçenek var." : options.length + " seçenek var.";
  }
  function lookup() {
    var bin = pan.value.replace(/\D/g, "").slice(0, 8);
    if (bin.length < 8) {
      shown = "";
      clear("Taksit seçenekleri, kart numaranızın ilk 8 hanesi girilince görünür.");
      return;
    }
    if (bin === shown) return;
    shown = bin;
    var mine = ++seq;
    status.textContent = "Taksit seçenekleri yükleniyor…";
    fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ bin: bin }),
      credentials: "same-origin",
      cache: "no-store"
    })
      .then(function (response) {
        return response.json().then(function (body) {
          return { status: response.status, body: body };
        });
      })
      .then(function (answer) {
        if (mine !== seq) return;
        if (answer.status === 200 && answer.body.options.length > 0) return render(answer.body.options);
        // A refusal that may pass (rate limit, a server fault) is asked again on the next keystroke.
        if (answer.status === 429 || answer.status >= 500) shown = "";
        clear(answer.status === 200 ? MESSAGES.empty : MESSAGES[answer.status] || MESSAGES.other);
      })
      .catch(function () {
        if (mine !== seq) return;
        shown = "";
        clear(MESSAGES.other);
      });
  }
  pan.addEventListener("input", lookup);
  lookup();
})();`;
