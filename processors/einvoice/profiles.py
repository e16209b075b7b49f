"""Which syntax and profile an e-invoice declares, and what to validate it against.

The plan mirrors KoSIT's validator: XML Schema first, then the EN 16931 schematron of
the syntax, then the CIUS schematron the document declares (XRechnung), with KoSIT's
per-scenario severity overrides. Factur-X / ZUGFeRD 2.x profiles are checked with the
Factur-X 1.09 profile XSD and schematron instead. ZUGFeRD 1.0 has only an XSD.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from lxml import etree

from processors.einvoice.findings import Level

UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
CII_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
ZUGFERD1_NS = "urn:ferd:CrossIndustryDocument:invoice:1p0"
CBC_NS = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"
RAM_NS = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
RAM12_NS = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12"


class Syntax(StrEnum):
    UBL_INVOICE = "ubl-invoice"
    UBL_CREDIT_NOTE = "ubl-credit-note"
    CII = "cii"
    ZUGFERD1 = "zugferd1"


ROOTS: MappingProxyType[tuple[str, str], Syntax] = MappingProxyType(
    {
        (UBL_INVOICE_NS, "Invoice"): Syntax.UBL_INVOICE,
        (UBL_CREDIT_NOTE_NS, "CreditNote"): Syntax.UBL_CREDIT_NOTE,
        (CII_NS, "CrossIndustryInvoice"): Syntax.CII,
        (ZUGFERD1_NS, "CrossIndustryDocument"): Syntax.ZUGFERD1,
    }
)


class Profile(StrEnum):
    EN16931 = "EN16931"  # the core standard, no CIUS rules applied
    CII_SCHEMA_ONLY = "CII (schema only)"  # pre-EN 16931 profile ids in a CII document
    XRECHNUNG = "XRECHNUNG"
    XRECHNUNG_LEGACY = "XRECHNUNG (before 3.0)"
    XRECHNUNG_EXTENSION = "XRECHNUNG_EXTENSION"
    XRECHNUNG_CVD = "XRECHNUNG_CVD"
    FACTURX_MINIMUM = "MINIMUM"
    FACTURX_BASIC_WL = "BASIC WL"
    FACTURX_BASIC = "BASIC"
    FACTURX_EN16931 = "EN 16931"
    FACTURX_EXTENDED = "EXTENDED"
    ZUGFERD1_BASIC = "ZUGFeRD 1.0 BASIC"
    ZUGFERD1_COMFORT = "ZUGFeRD 1.0 COMFORT"
    ZUGFERD1_EXTENDED = "ZUGFeRD 1.0 EXTENDED"


EN16931_ID = "urn:cen.eu:en16931:2017"
_FACTURX_ID = re.compile(
    r"(?:factur-x\.eu|zugferd\.de):[12]p0:(minimum|basicwl|basic|en16931|extended)$"
)
_FACTURX_PROFILES = MappingProxyType(
    {
        "minimum": Profile.FACTURX_MINIMUM,
        "basicwl": Profile.FACTURX_BASIC_WL,
        "basic": Profile.FACTURX_BASIC,
        "en16931": Profile.FACTURX_EN16931,
        "extended": Profile.FACTURX_EXTENDED,
    }
)
# ZUGFeRD 1.0 guideline ids (docs/einvoice.md, "ZUGFeRD 1.0 identifiers"): the final
# spelling of the published specification (25 June 2014), and two spellings of its drafts
# that real files still carry: the release candidate's `urn:ferd:invoice:rc:<level>` and
# `urn:ferd:invoice:1.0:<level>`. All three name the same 1.0 schema.
_ZUGFERD1_ID = re.compile(
    r"^urn:ferd:(?:CrossIndustryDocument:invoice:1p0:(basic|comfort|extended|e)"
    r"|invoice:(?:rc|1\.0):(basic|comfort|extended))$",
    re.IGNORECASE,
)
_ZUGFERD1_FINAL_PREFIX = "urn:ferd:CrossIndustryDocument:invoice:1p0:"
_ZUGFERD1_PROFILES = MappingProxyType(
    {
        "basic": Profile.ZUGFERD1_BASIC,
        "comfort": Profile.ZUGFERD1_COMFORT,
        # `...:1p0:E` is the level of the COMFORT examples of the first 1.0 documentation
        # package ("Einfach"), corrected to `:comfort` in later packages.
        "e": Profile.ZUGFERD1_COMFORT,
        "extended": Profile.ZUGFERD1_EXTENDED,
    }
)


class UnknownProfileError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Declared:
    syntax: Syntax
    specification_id: str | None


def syntax_of(root: etree._Element) -> Syntax | None:
    qname = etree.QName(root)
    return ROOTS.get((qname.namespace or "", qname.localname))


def declared_of(root: etree._Element, syntax: Syntax) -> Declared:
    if syntax in (Syntax.UBL_INVOICE, Syntax.UBL_CREDIT_NOTE):
        values = root.xpath("cbc:CustomizationID/text()", namespaces={"cbc": CBC_NS})
    else:
        context = (
            "rsm:ExchangedDocumentContext"
            if syntax is Syntax.CII
            else ("rsm:SpecifiedExchangedDocumentContext")
        )
        values = root.xpath(
            f"{context}/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID/text()",
            namespaces={
                "rsm": etree.QName(root).namespace,
                "ram": RAM_NS if syntax is Syntax.CII else RAM12_NS,
            },
        )
    assert isinstance(values, list)
    spec = str(values[0]).strip() if values else None
    return Declared(syntax, spec or None)


def profile_of(declared: Declared) -> tuple[Profile, str | None]:
    """The profile to validate against, and a note when the choice needs explaining.

    Raises UnknownProfileError for identifiers no rule set exists for.
    """
    spec = declared.specification_id
    if spec is None:
        raise UnknownProfileError(
            "the invoice declares no specification identifier "
            "(CustomizationID / GuidelineSpecifiedDocumentContextParameter)"
        )
    zugferd1 = _ZUGFERD1_ID.match(spec)
    if declared.syntax is Syntax.ZUGFERD1:
        if zugferd1 is None:
            raise UnknownProfileError(f"unknown ZUGFeRD 1.0 profile identifier {spec!r}")
        level = zugferd1.group(1) or zugferd1.group(2)
        profile = _ZUGFERD1_PROFILES[level.lower()]
        return profile, _zugferd1_draft_note(spec, profile)
    if zugferd1 is not None and declared.syntax is Syntax.CII:
        # ZUGFeRD 1.0 profiles predate EN 16931, so its business rules do not bind them.
        return Profile.CII_SCHEMA_ONLY, (
            f"ZUGFeRD 1.0 identifier {spec!r} in a CII document: "
            "checked against the CII schema only"
        )
    if "xrechnung" in spec.lower():
        return _xrechnung_profile(spec), None
    facturx = _FACTURX_ID.search(spec)
    if facturx is not None and declared.syntax is Syntax.CII:
        return _FACTURX_PROFILES[facturx.group(1)], None
    if spec == EN16931_ID:
        return (Profile.FACTURX_EN16931 if declared.syntax is Syntax.CII else Profile.EN16931), None
    if spec.startswith((EN16931_ID + "#compliant#", EN16931_ID + "#conformant#")):
        return Profile.EN16931, (
            f"no rules for the CIUS/extension in {spec!r} are installed; "
            "validated against EN 16931 only"
        )
    raise UnknownProfileError(f"unknown specification identifier {spec!r}")


def _zugferd1_draft_note(spec: str, profile: Profile) -> str | None:
    final = _ZUGFERD1_FINAL_PREFIX + profile.removeprefix("ZUGFeRD 1.0 ").lower()
    if spec == final:
        return None
    return (
        f"ZUGFeRD 1.0 identifier {spec!r} is a draft or variant spelling of {final!r}: "
        f"read as {profile} and checked against the ZUGFeRD 1.0 schema"
    )


_XRECHNUNG_VERSION = re.compile(r"xrechnung_(\d+)\.(\d+)")


def _xrechnung_profile(spec: str) -> Profile:
    lowered = spec.lower()
    version = _XRECHNUNG_VERSION.search(lowered)
    if version is not None and (int(version.group(1)), int(version.group(2))) < (3, 0):
        return Profile.XRECHNUNG_LEGACY
    if ":extension:" in lowered:
        return Profile.XRECHNUNG_EXTENSION
    if ":xrechnung:cvd_" in lowered:
        return Profile.XRECHNUNG_CVD
    return Profile.XRECHNUNG


# --- validation plans ------------------------------------------------------------------

_UBL_XSD = MappingProxyType(
    {
        Syntax.UBL_INVOICE: "factur-x/ubl-2.1/maindoc/UBL-Invoice-2.1.xsd",
        Syntax.UBL_CREDIT_NOTE: "factur-x/ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd",
    }
)
# EN 16931 binds CII to UN/CEFACT D16B: every CII invoice is checked against it (as
# KoSIT does), Factur-X profiles additionally against their profile schema.
# The one D16B schema on a registry is UN/CEFACT's *coupled* variant, which also fixes code
# values; CEN uses the uncoupled one and checks codes by schematron with EN 16931's own
# code lists. So code-list (enumeration) errors of this schema are only warnings.
_CII_XSD = "cii-d16b/data/standard/CrossIndustryInvoice_100pD16B.xsd"
CODE_LISTS_CHECKED_ELSEWHERE = frozenset({_CII_XSD})
_ZUGFERD1_XSD = "factur-x/zugferd/ZUGFeRD1p0.xsd"
_CEN_UBL = "kosit/EN16931-UBL-validation.xsl"
_CEN_CII = "kosit/EN16931-CII-validation.xsl"
_XR_UBL = "kosit/XRechnung-UBL-validation.xsl"
_XR_CII = "kosit/XRechnung-CII-validation.xsl"
_FACTURX = MappingProxyType(
    {
        Profile.FACTURX_MINIMUM: (
            "factur-x/facturx-minimum/Factur-X_MINIMUM.xsd",
            "factur-x/facturx-minimum/Factur-X_1.09_MINIMUM.xsl",
        ),
        Profile.FACTURX_BASIC_WL: (
            "factur-x/facturx-basicwl/Factur-X_BASICWL.xsd",
            "factur-x/facturx-basicwl/FACTUR-X_BASIC-WL.xslt",
        ),
        Profile.FACTURX_BASIC: (
            "factur-x/facturx-basic/Factur-X_BASIC.xsd",
            "factur-x/facturx-basic/Factur-X_1.09_BASIC.xsl",
        ),
        Profile.FACTURX_EN16931: (
            "factur-x/facturx-en16931/Factur-X_EN16931.xsd",
            "factur-x/facturx-en16931/FACTUR-X_EN16931.xslt",
        ),
        Profile.FACTURX_EXTENDED: (
            "factur-x/facturx-extended/Factur-X_EXTENDED.xsd",
            "factur-x/facturx-extended/FACTUR-X_EXTENDED.xslt",
        ),
    }
)

# KoSIT validator-configuration-xrechnung, scenarios.xml (release for XRechnung 3.0.2):
# <customLevel> entries per scenario. Findings of these rules are re-levelled.
_KOSIT_STANDARD = MappingProxyType({"BR-CL-23": Level.WARNING, "BR-CL-21": Level.WARNING})
_KOSIT_EXTENSION_UBL = MappingProxyType(
    {
        "BR-CL-21": Level.INFORMATION,
        "BR-CL-23": Level.WARNING,
        "BR-CL-24": Level.WARNING,
        "BR-CL-10": Level.INFORMATION,
        "BR-CL-11": Level.INFORMATION,
        "BR-CL-25": Level.INFORMATION,
        "BR-CL-26": Level.INFORMATION,
        "BR-CO-16": Level.INFORMATION,
    }
)
# The CVD scenario replaces BR-CL-13 (item classification list) by BR-TMP-CVD-01, which
# admits the scheme 'CVD'; both extension scenarios replace BR-CL-24 by a MIME code check
# that admits application/xml attachments (BR-DEX-01).
_KOSIT_CVD = MappingProxyType({**_KOSIT_STANDARD, "BR-CL-13": Level.INFORMATION})
_KOSIT_EXTENSION_CII = MappingProxyType(
    {
        "BR-CL-23": Level.WARNING,
        "BR-CL-24": Level.WARNING,
        "BR-CL-21": Level.INFORMATION,
        "BR-CL-11": Level.INFORMATION,
        "BR-CL-10": Level.INFORMATION,
        "BR-CL-25": Level.INFORMATION,
        "BR-CL-26": Level.INFORMATION,
    }
)


@dataclass(frozen=True, slots=True)
class ValidationPlan:
    schemas: tuple[str, ...]  # artefact paths relative to the rules root
    schematrons: tuple[str, ...]
    level_overrides: MappingProxyType[str, Level] = field(
        default_factory=lambda: MappingProxyType({})
    )
    scenario: str = ""
    # Rule-id prefixes reported as warnings only: rules the declared (older) version of
    # the CIUS did not have yet.
    warning_prefixes: tuple[str, ...] = ()


# XRechnung 3.0 adopted Peppol's PEPPOL-EN16931-* rules; an invoice declaring XRechnung
# 1.x / 2.x is checked against today's rules but not failed for those newer ones.
_LEGACY_XRECHNUNG_WARNINGS = ("PEPPOL-",)


def plan_for(syntax: Syntax, profile: Profile) -> ValidationPlan:
    if syntax is Syntax.ZUGFERD1:
        return ValidationPlan((_ZUGFERD1_XSD,), (), scenario="ZUGFeRD 1.0 (XML Schema)")
    if syntax is Syntax.CII:
        return _cii_plan(profile)
    return _ubl_plan(syntax, profile)


def _ubl_plan(syntax: Syntax, profile: Profile) -> ValidationPlan:
    xsd = (_UBL_XSD[syntax],)
    if profile is Profile.XRECHNUNG:
        return ValidationPlan(xsd, (_CEN_UBL, _XR_UBL), _KOSIT_STANDARD, "EN16931 XRechnung (UBL)")
    if profile is Profile.XRECHNUNG_EXTENSION:
        return ValidationPlan(
            xsd, (_CEN_UBL, _XR_UBL), _KOSIT_EXTENSION_UBL, "EN16931 XRechnung Extension (UBL)"
        )
    if profile is Profile.XRECHNUNG_CVD:
        return ValidationPlan(xsd, (_CEN_UBL, _XR_UBL), _KOSIT_CVD, "EN16931 XRechnung CVD (UBL)")
    if profile is Profile.XRECHNUNG_LEGACY:
        return ValidationPlan(
            xsd,
            (_CEN_UBL, _XR_UBL),
            _KOSIT_EXTENSION_UBL,
            "EN16931 XRechnung before 3.0 (UBL)",
            _LEGACY_XRECHNUNG_WARNINGS,
        )
    return ValidationPlan(xsd, (_CEN_UBL,), scenario="EN16931 (UBL)")


def _cii_plan(profile: Profile) -> ValidationPlan:
    if profile is Profile.XRECHNUNG:
        return ValidationPlan(
            (_CII_XSD,), (_CEN_CII, _XR_CII), _KOSIT_STANDARD, "EN16931 XRechnung (CII)"
        )
    if profile is Profile.XRECHNUNG_EXTENSION:
        return ValidationPlan(
            (_CII_XSD,),
            (_CEN_CII, _XR_CII),
            _KOSIT_EXTENSION_CII,
            "EN16931 XRechnung Extension (CII)",
        )
    if profile is Profile.XRECHNUNG_CVD:
        return ValidationPlan(
            (_CII_XSD,), (_CEN_CII, _XR_CII), _KOSIT_CVD, "EN16931 XRechnung CVD (CII)"
        )
    if profile is Profile.XRECHNUNG_LEGACY:
        return ValidationPlan(
            (_CII_XSD,),
            (_CEN_CII, _XR_CII),
            _KOSIT_EXTENSION_CII,
            "EN16931 XRechnung before 3.0 (CII)",
            _LEGACY_XRECHNUNG_WARNINGS,
        )
    if profile is Profile.CII_SCHEMA_ONLY:
        return ValidationPlan((_CII_XSD,), (), scenario="CII (XML Schema only)")
    if profile in _FACTURX:
        xsd, schematron = _FACTURX[profile]
        schematrons = (
            (_CEN_CII, schematron) if profile is Profile.FACTURX_EN16931 else (schematron,)
        )
        return ValidationPlan((_CII_XSD, xsd), schematrons, scenario=f"Factur-X 1.09 {profile}")
    return ValidationPlan((_CII_XSD,), (_CEN_CII,), scenario="EN16931 (CII)")


def every_artefact() -> tuple[str, ...]:
    """Every XSD and stylesheet a plan may name, to compile them all ahead of use."""
    schemas = (*_UBL_XSD.values(), _CII_XSD, _ZUGFERD1_XSD)
    stylesheets = (_CEN_UBL, _CEN_CII, _XR_UBL, _XR_CII)
    facturx = tuple(name for pair in _FACTURX.values() for name in pair)
    return (*schemas, *stylesheets, *facturx)
