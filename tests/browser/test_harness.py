"""The harness itself: a plain ipywidgets notebook in JupyterLab, driven by Playwright.

If this fails, the browser setup (server, Chromium, widget rendering) is broken, not the kit.
"""

from __future__ import annotations

CELLS = (
    "import ipywidgets as w\n"
    "pick = w.Dropdown(options=['A', 'B', 'C'], value='A')\n"
    "pick.add_class('probe-pick')\n"
    "out = w.HTML('picked A')\n"
    "out.add_class('probe-out')\n"
    "pick.observe(lambda change: setattr(out, 'value', f\"picked {change['new']}\"), 'value')\n"
    "w.VBox([pick, out])",
)


def test_a_dropdown_change_reaches_the_kernel_and_back(open_lab, make_notebook):
    page = open_lab(make_notebook(*CELLS))
    out = page.locator(".probe-out")
    assert out.inner_text().strip() == "picked A"
    page.locator(".probe-pick select").select_option("C")
    page.wait_for_function(
        "() => document.querySelector('.probe-out').innerText.trim() === 'picked C'"
    )


def test_voila_serves_the_widgets_without_code_and_takes_keyboard_input(
    voila, page, make_notebook, tmp_path
):
    import json

    nb = tmp_path / "probe.ipynb"
    nb.write_text(json.dumps(make_notebook(*CELLS)), encoding="utf-8")
    with voila(nb) as url:
        page.goto(url, wait_until="domcontentloaded")
        out = page.locator(".probe-out")
        out.wait_for()
        assert out.inner_text().strip() == "picked A"
        assert page.get_by_text("import ipywidgets").count() == 0  # no code shown
        # Keyboard only: Tab to the dropdown, arrow down twice.
        for _ in range(20):
            if page.evaluate("() => !!document.activeElement.closest('.probe-pick')"):
                break
            page.keyboard.press("Tab")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        page.wait_for_function(
            "() => document.querySelector('.probe-out').innerText.trim() === 'picked C'"
        )
