"""The GM's unit-file pages: import files, a zip or pasted text; download a record as its unit file."""

from __future__ import annotations

from django.core import signing
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import content_disposition_header

from referee import htmx
from referee.campaigns.models import Campaign
from referee.fleet.models import Ship, Unit
from referee.play.door import gm_view
from referee.play.selectors import dashboard_context
from referee.play.services import PlayError
from referee.sheets.document import SheetError, normalise
from referee.unitfiles import Batch, ReadUnit, UnitFileError, read_pasted, read_uploads, write_unit_text

from . import services
from .forms import PENDING_LIMIT, UnitFileImportForm

TEMPLATE = "imports/import.html"
EXPORTABLE = {"ships": Ship, "units": Unit}


def _context(campaign: Campaign, form, **more) -> dict:
    back = reverse("campaigns:detail", args=[campaign.code])
    return {
        "campaign": campaign,
        "form": form,
        "action": reverse("imports:import", args=[campaign.code]),
        "back": back,
        "crumbs": [(campaign.name, back)],
        "title": "Import unit files",
        **more,
    }


_PENDING_SALT = "referee.imports.pending"
PENDING_HOURS = 2


def _pending(units: list[ReadUnit]) -> str:
    """The units read, signed, to carry in the form while the GM says what to do; "" when too large."""
    value = signing.dumps(
        [[u.source, u.doc, list(u.warnings)] for u in units], salt=_PENDING_SALT, compress=True
    )
    return value if len(value) <= PENDING_LIMIT else ""


def _read(form: UnitFileImportForm) -> Batch:
    if form.cleaned_data.get("pending"):
        batch = Batch()
        try:
            rows = signing.loads(
                form.cleaned_data["pending"], salt=_PENDING_SALT, max_age=PENDING_HOURS * 3600
            )
            batch.units = [
                ReadUnit(str(source), normalise(doc), tuple(map(str, notes))) for source, doc, notes in rows
            ]
        except (signing.BadSignature, SheetError, TypeError, ValueError):
            batch.failed.append(UnitFileError("The files read earlier have expired; choose them again."))
        return batch
    batch = read_uploads((f.name, f.read()) for f in form.cleaned_data["files"])
    text = form.cleaned_data.get("text") or ""
    if text.strip():
        pasted = read_pasted(text)
        batch.units.extend(pasted.units)
        batch.failed.extend(pasted.failed)
    return batch


@gm_view("GET", "POST")
def unit_files_import(request: htmx.HtmxHttpRequest, campaign: Campaign) -> HttpResponse:
    """Upload or paste; what could be read becomes records (or designs) in one logged entry,
    what could not is listed with its reason. Nothing readable: 422, nothing created."""
    if request.method != "POST":
        return htmx.page(request, TEMPLATE, _context(campaign, UnitFileImportForm()), partial="form")
    form = UnitFileImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return htmx.page(request, TEMPLATE, _context(campaign, form), partial="form", status=htmx.INVALID)
    batch = _read(form)
    problems = [str(error) for error in batch.failed] + [f"{s.source}: {s.reason}" for s in batch.skipped]
    notes = [f"{unit.source}: {note}" for unit in batch.units for note in unit.warnings]
    if not batch.units:
        context = _context(campaign, form, problems=problems, nothing_read=True)
        return htmx.page(request, TEMPLATE, context, partial="form", status=htmx.INVALID)
    try:
        imported = services.unit_files_import(
            campaign=campaign,
            units=batch.units,
            actor=request.user,
            as_designs=form.cleaned_data["as_designs"],
            skipped=len(problems),
            request_key=form.cleaned_data["request_key"],
            existing=form.cleaned_data["existing"],
        )
    except services.AlreadyInCampaign as error:
        # Ask: the same units wait in the form (no need to choose the files again) for the answer.
        pending = _pending(batch.units)
        again = UnitFileImportForm(
            initial={"pending": pending, "as_designs": form.cleaned_data["as_designs"]}
        )
        again.fields["existing"].choices = again.fields["existing"].choices[1:]
        again.fields["existing"].initial = services.COPY
        if pending:  # too many units to carry: the files are chosen again with the answer
            del again.fields["files"], again.fields["text"]
        context = _context(
            campaign, again, problems=problems, notes=notes, already=error.names, asking=str(error)
        )
        return htmx.page(request, TEMPLATE, context, partial="form", status=htmx.INVALID)
    except PlayError as error:
        context = _context(campaign, form, problems=[str(error), *problems], nothing_read=True)
        return htmx.page(request, TEMPLATE, context, partial="form", status=htmx.INVALID)
    context = _context(campaign, UnitFileImportForm(), imported=imported, problems=problems, notes=notes)
    response = htmx.page(request, TEMPLATE, context, partial="form")
    if request.htmx:
        response.write(_panels_out_of_band(request, campaign, designs=form.cleaned_data["as_designs"]))
    return htmx.campaign_changed(response)


PANELS = {
    "ships": "campaigns/dashboard.html#ships-panel",
    "units": "campaigns/dashboard.html#units-panel",
    "designs": "sheets/panel.html#designs-panel",
}


def _panels_out_of_band(request: htmx.HtmxHttpRequest, campaign: Campaign, *, designs: bool) -> str:
    """The dashboard panels the import changed, refreshed beside the import card (``oob``:
    HTMX swaps each into the element of its id), so what was imported shows at once; the
    card stays (``keep_form_slot``)."""
    panels = {**dashboard_context(campaign), "keep_form_slot": True, "oob": True}
    slugs = ("designs",) if designs else ("ships", "units")
    return "".join(render_to_string(PANELS[slug], panels, request=request) for slug in slugs)


@gm_view("GET")
def unit_file_export(request: htmx.HtmxHttpRequest, campaign: Campaign, kind: str, obj_code) -> HttpResponse:
    """A record's sheet as a MegaMek unit file (.mtf for a 'Mech, .blk for the rest), to download."""
    model = EXPORTABLE.get(kind)
    if model is None:
        raise Http404("No such kind of record")
    obj = get_object_or_404(model.objects.in_campaign(campaign), code=obj_code)
    if not obj.sheet:
        raise Http404("This record has no record sheet to export.")
    try:
        filename, text = write_unit_text(obj.sheet)
    except (UnitFileError, KeyError, TypeError, ValueError):
        raise Http404("This record's sheet cannot be written as a unit file.") from None
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response
