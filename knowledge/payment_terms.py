"""Payment terms across languages: what a Dutch, French or German question's words are in English.

Bank staff ask in their own language; payment-scheme rulebooks and ISO 20022 guides are mostly
written in English. The dense encoder bridges the languages, but only roughly (it prefers a
passage in the question's own language, and its cosines for a translation sit ~0.02 lower:
DESIGN.md), and the lexical signals bridge nothing: "afgewezen", "créancier" and
"Zahlungsempfänger" share no term with "rejected", "creditor" and "payee". So the BM25 leg of a
non-English question also searches the English words of the payment terms it uses
(`Bm25Encoder.query_term_weights`), and the offline model's span scoring counts them when it
measures an English sentence's overlap with the question (`span_scoring`).

The table is written from the vocabulary of the domain (the EPC rulebooks' and ISO 20022's
glossaries, the QR-bill's parts, the words of a bank's back office), not from any question of
ours. A row is one concept: its English, Dutch, French and German words, "/" between
alternatives. A word the languages share ("status", "code", "IBAN", "camt.029") needs no row:
it matches already. Words are compared as the BM25 index compares them (accent-folded Snowball
stems of the language, stop words dropped), and an alternative of several words counts only when
the question holds all of them.
"""

from __future__ import annotations

from functools import lru_cache

from knowledge.bm25 import tokenize

# en | nl | fr | de
_ROWS = (
    # parties
    "creditor | crediteur / schuldeiser | créancier / créditeur | Gläubiger / Kreditor",
    "debtor | debiteur / schuldenaar | débiteur | Schuldner / Debitor",
    "payee / beneficiary | begunstigde / ontvanger / betaalontvanger | bénéficiaire | Zahlungsempfänger / Begünstigter / Empfänger",
    "payer / originator | betaler / opdrachtgever | payeur / donneur d'ordre | Zahler / Auftraggeber",
    "bank | bank | banque | Bank",
    "payment service provider / PSP | betaaldienstverlener | prestataire de services de paiement | Zahlungsdienstleister",
    "participant | deelnemer | participant | Teilnehmer",
    "intermediary | tussenpersoon / intermediair | intermédiaire | Intermediär / zwischengeschaltet",
    "agent | agent | agent | Agent",
    "account holder / account owner | rekeninghouder | titulaire du compte | Kontoinhaber",
    "customer / client | klant | client | Kunde",
    "merchant | handelaar / winkelier | commerçant | Händler",
    "biller / invoice issuer | factuurverzender / factuuruitgever | émetteur de factures / émetteur | Rechnungssteller",
    "financial institution | financiële instelling | établissement financier / institution financière | Finanzinstitut",
    "institution | instelling | institution / établissement | Institut",
    "branch | bijkantoor / filiaal | succursale | Zweigniederlassung / Filiale",
    "subsidiary | dochteronderneming | filiale | Tochtergesellschaft",
    "head office | hoofdkantoor | siège | Hauptsitz",
    "case assigner | opdrachtgever van de zaak | cédant du dossier | Fallzuweiser",
    "case assignee | ontvanger van de zaak | destinataire du dossier | Fallempfänger",
    "investigation | onderzoek | investigation / enquête | Untersuchung / Nachforschung",
    "case | zaak / dossier | dossier / cas | Fall",
    # money and accounts
    "payment | betaling | paiement | Zahlung",
    "transfer | overboeking / overmaking | virement | Überweisung",
    "credit transfer | overboeking / overmaking | virement | Überweisung",
    "instant | instant / direct | instantané | Echtzeit / sofort",
    "direct debit | incasso / automatische incasso | prélèvement | Lastschrift",
    "mandate | machtiging / mandaat | mandat | Mandat",
    "account | rekening | compte | Konto",
    "amount | bedrag | montant | Betrag",
    "currency | valuta / munteenheid | devise / monnaie | Währung",
    "charges / fees | kosten / tarieven | frais | Gebühren / Entgelte / Spesen",
    "interest | rente | intérêts | Zinsen",
    "compensation | compensatie / vergoeding | indemnisation / compensation | Entschädigung / Ausgleich",
    "discount | korting | escompte / remise | Skonto / Rabatt",
    "tax | belasting | taxe / impôt | Steuer",
    "invoice / bill | factuur / rekening | facture | Rechnung",
    "balance | saldo | solde | Saldo",
    "settlement | afwikkeling / verrekening | règlement | Abwicklung / Verrechnung",
    "clearing | clearing / verrekening | compensation | Clearing",
    "reimbursement | terugbetaling / vergoeding | remboursement | Rückerstattung / Erstattung",
    "refund | terugbetaling | remboursement | Erstattung",
    "cover | dekking | couverture | Deckung",
    # what happens to a payment
    "cancellation / cancel | annulering / annuleren | annulation / annuler | Stornierung / stornieren / Annullierung",
    "modification / modify / amendment / amend | wijziging / wijzigen | modification / modifier | Änderung / ändern",
    "reject / rejection / rejected | afwijzen / afwijzing / afgewezen / weigeren / geweigerd | rejet / rejeter / rejeté | Ablehnung / ablehnen / abgelehnt / Zurückweisung",
    "accept / acceptance / accepted | accepteren / aanvaarden / geaccepteerd | accepter / acceptation / accepté | akzeptieren / annehmen / angenommen",
    "return | terugboeking / retour | retour | Rückgabe / Retoure / Rücküberweisung",
    "recall | terugroeping / terugvordering | rappel | Rückruf",
    "request | verzoek / aanvraag | demande | Anfrage / Anforderung / Antrag",
    "response / answer / reply | antwoord | réponse | Antwort",
    "resolution | oplossing | résolution | Lösung / Klärung",
    "claim | claim / vordering | réclamation | Reklamation / Forderung",
    "non-receipt / not received | niet ontvangen | non-réception | Nichterhalt / nicht erhalten",
    "duplicate | duplicaat / dubbel | doublon / double | Duplikat / doppelt",
    "execution | uitvoering | exécution | Ausführung",
    "initiation / initiate | initiatie / aanlevering | initiation / initier | Einreichung / Auslösung",
    "booking / posting / credited | boeking / bijschrijving / bijgeschreven | comptabilisation / crédité | Buchung / Gutschrift",
    "debited / debit | afschrijving / afgeschreven | débité / débit | Belastung / belastet",
    "forward / forwarded | doorsturen / doorgestuurd | transmettre / transmis | weiterleiten / weitergeleitet",
    "notification / notify | melding / kennisgeving / melden | notification / notifier | Benachrichtigung / Mitteilung",
    "report | rapport / verslag | rapport | Bericht / Meldung",
    "statement | afschrift | relevé | Kontoauszug / Auszug",
    "confirmation / confirm | bevestiging / bevestigen | confirmation / confirmer | Bestätigung / bestätigen",
    "approval / approved | goedkeuring / goedgekeurd | approbation / approuvé | Genehmigung / genehmigt",
    "activation / activate | activering / activeren | activation / activer | Aktivierung / aktivieren",
    "enrolment / registration | inschrijving / registratie / aanmelding | inscription / enregistrement | Registrierung / Anmeldung",
    "deletion / delete | verwijdering / verwijderen | suppression / supprimer | Löschung / löschen",
    "adherence / join | toetreding / toetreden | adhésion / adhérer | Beitritt / beitreten",
    "withdrawal / withdraw | terugtrekking / intrekken | retrait / retirer | Rücktritt / Austritt / zurückziehen",
    "suspension / suspend | schorsing / opschorten | suspension / suspendre | Aussetzung / aussetzen",
    "termination | beëindiging | résiliation | Kündigung / Beendigung",
    "dispute | geschil | litige / différend | Streit / Streitfall",
    "complaint | klacht | plainte | Beschwerde",
    "fraud / fraudulent | fraude / frauduleus | fraude / frauduleux | Betrug / betrügerisch",
    "error | fout | erreur | Fehler",
    "check / verification | controle / verificatie | contrôle / vérification | Prüfung / Kontrolle",
    # messages and their parts
    "message | bericht | message | Nachricht / Meldung",
    "element | element / veld | élément / champ | Element / Feld",
    "field | veld | champ | Feld",
    "attribute | attribuut / kenmerk | attribut | Attribut",
    "reason | reden | motif / raison | Grund",
    "reason code | redencode | code motif / code raison | Grundcode",
    "identification / identifier | identificatie / kenmerk | identification / identifiant | Identifikation / Kennung",
    "reference | referentie / kenmerk | référence | Referenz",
    "remittance information | betalingskenmerk / omschrijving / mededeling | informations de remise / communication | Verwendungszweck / Zahlungszweck",
    "structured | gestructureerd | structuré | strukturiert",
    "unstructured | ongestructureerd | non structuré | unstrukturiert",
    "mandatory / required | verplicht | obligatoire | obligatorisch / Pflicht / zwingend",
    "optional | optioneel / facultatief | optionnel / facultatif | optional / fakultativ",
    "conditional | voorwaardelijk | conditionnel | bedingt",
    "occurrence | voorkomen / herhaling | occurrence | Vorkommen",
    "length | lengte | longueur | Länge",
    "maximum | maximum / maximaal | maximum / maximal | Maximum / maximal / höchstens",
    "minimum | minimum / minimaal | minimum / minimal | Minimum / mindestens",
    "character | teken / karakter | caractère | Zeichen",
    "digit | cijfer | chiffre | Ziffer",
    "letter | letter | lettre | Buchstabe",
    "position | positie | position | Position / Stelle",
    "check digit | controlegetal / controlecijfer | chiffre de contrôle | Prüfziffer",
    "rule | regel | règle | Regel",
    "definition / define | definitie / definiëren | définition / définir | Definition / definieren",
    "usage / use | gebruik / gebruiken | utilisation / usage / utiliser | Verwendung / Nutzung / verwenden",
    "value | waarde | valeur | Wert",
    "date | datum | date | Datum",
    "time | tijd / tijdstip | heure / temps | Zeit / Uhrzeit",
    "period | periode / termijn | période / délai | Zeitraum / Frist / Periode",
    "deadline / time limit | deadline / termijn | délai / échéance | Frist",
    "day | dag | jour | Tag",
    "business day / working day | werkdag | jour ouvrable | Geschäftstag / Arbeitstag / Bankarbeitstag",
    "month | maand | mois | Monat",
    "year | jaar | année / an | Jahr",
    "calendar | kalender | calendrier | Kalender",
    "closing day / holiday | sluitingsdag / feestdag | jour de fermeture / jour férié | Feiertag / Schliesstag",
    "version | versie | version | Version",
    "schema | schema | schéma | Schema",
    "header | kop / header | en-tête | Kopf / Header",
    "group header | groepsheader | en-tête de groupe | Gruppenkopf",
    "block | blok | bloc | Block",
    "building block | bouwsteen | bloc de construction | Baustein",
    "file | bestand | fichier | Datei",
    "batch | batch / bundel | lot | Sammelauftrag / Stapel",
    "transaction | transactie | transaction | Transaktion",
    "instruction | instructie / opdracht | instruction / ordre | Anweisung / Auftrag",
    "order | opdracht / bestelling | ordre / commande | Auftrag / Bestellung",
    "purpose | doel | objet / finalité | Zweck",
    "category purpose | categorie doel | catégorie de finalité | Kategoriezweck",
    "address | adres | adresse | Adresse",
    "name | naam | nom | Name",
    "country | land | pays | Land",
    "postal code | postcode | code postal | Postleitzahl",
    "town / city | plaats / woonplaats / stad | localité / ville | Ort / Stadt",
    "street | straat | rue | Strasse",
    # QR-bill and Swiss terms
    "receipt | ontvangstbewijs | récépissé / reçu | Empfangsschein / Quittung",
    "payment part | betaaldeel | section paiement | Zahlteil",
    "QR-bill | QR-factuur | QR-facture | QR-Rechnung",
    "QR code | QR-code | code QR | QR-Code",
    "additional information | aanvullende informatie / extra informatie | informations supplémentaires | zusätzliche Informationen",
    "printed / print | afgedrukt / afdrukken | imprimé / imprimer | gedruckt / drucken",
    "paper | papier | papier | Papier",
    "perforation | perforatie | perforation | Perforation",
    "font | lettertype | police | Schriftart",
    "layout | opmaak / lay-out | mise en page | Layout / Gestaltung",
    "cash | contant / contanten | espèces | bar / Bargeld",
    "post office counter | postkantoor / loket | guichet postal | Postschalter",
    # governance and documents
    "rulebook | regelboek | recueil de règles / règlement | Regelwerk",
    "scheme | schema / stelsel | schéma / système | Verfahren / System",
    "guideline / implementation guidelines | richtlijn / implementatierichtlijnen | directive / lignes directrices | Richtlinie / Implementierungsrichtlinien",
    "specification | specificatie | spécification | Spezifikation",
    "annex / appendix | bijlage | annexe | Anhang / Anlage",
    "chapter | hoofdstuk | chapitre | Kapitel",
    "section | sectie / paragraaf | section | Abschnitt",
    "table | tabel | tableau | Tabelle",
    "figure | figuur / afbeelding | figure | Abbildung",
    "change / changes | wijziging / wijzigingen | changement / modification | Änderung / Änderungen",
    "change request | wijzigingsverzoek | demande de changement | Änderungsantrag",
    "release | release / uitgave | version / publication | Release / Ausgabe",
    "publication / published | publicatie / gepubliceerd | publication / publié | Veröffentlichung / veröffentlicht",
    "entry into force / effective | inwerkingtreding / van kracht | entrée en vigueur | Inkrafttreten / gültig",
    "obligation | verplichting | obligation | Pflicht / Verpflichtung",
    "liability | aansprakelijkheid | responsabilité | Haftung",
    "penalty | boete / sanctie | pénalité / sanction | Strafe / Sanktion",
    "confidential | vertrouwelijk | confidentiel | vertraulich",
    "risk | risico | risque | Risiko",
    "security | beveiliging / veiligheid | sécurité | Sicherheit",
    "committee | comité / commissie | comité | Ausschuss / Komitee",
    "member state | lidstaat | État membre | Mitgliedstaat",
    "regulation | verordening / regelgeving | règlement / réglementation | Verordnung / Regulierung",
    "directive | richtlijn | directive | Richtlinie",
    "proposal | voorstel | proposition | Vorschlag",
    "procedure | procedure | procédure | Verfahren",
    "transition / migration | overgang / migratie | transition / migration | Übergang / Migration",
    "validity / valid | geldigheid / geldig | validité / valable | Gültigkeit / gültig",
    "support / supported | ondersteunen / ondersteund | prendre en charge / supporté | unterstützen / unterstützt",
    "allowed / permitted | toegestaan | autorisé / permis | erlaubt / zulässig",
    "prohibited / not allowed | verboden / niet toegestaan | interdit | verboten / unzulässig",
    "increase | verhogen / verhoging | augmenter / augmentation | erhöhen / Erhöhung",
    "decrease / reduce | verlagen / verminderen | diminuer / réduire | verringern / reduzieren",
)

_LANGUAGES = ("en", "nl", "fr", "de")


@lru_cache(maxsize=1)
def _table() -> tuple[tuple[dict[str, tuple[tuple[str, ...], ...]], ...], ...]:
    """Per row, per language: the stemmed terms of each alternative (read once; immutable)."""
    rows = []
    for row in _ROWS:
        cells = [cell.strip() for cell in row.split("|")]
        if len(cells) != len(_LANGUAGES):
            raise ValueError(f"a payment-terms row needs {len(_LANGUAGES)} languages: {row!r}")
        by_language = {}
        for language, cell in zip(_LANGUAGES, cells, strict=True):
            alternatives = tuple(tuple(tokenize(word.strip(), language)) for word in cell.split("/") if word.strip())
            by_language[language] = tuple(a for a in alternatives if a)
        rows.append(by_language)
    return tuple(rows)  # type: ignore[return-value]


@lru_cache(maxsize=4_096)
def translated_terms(question: str, language: str, target: str) -> frozenset[str]:
    """The index terms in `target` (en, nl, fr, de) of the payment terms a question in `language` uses,
    less the terms the question gives in that language already; empty when the two languages are one
    or the table does not hold one of them."""
    if language == target or language not in _LANGUAGES or target not in _LANGUAGES:
        return frozenset()
    held = set(tokenize(question, language))
    found: set[str] = set()
    for row in _table():
        if any(alternative and set(alternative) <= held for alternative in row[language]):
            for alternative in row[target]:
                found.update(alternative)
    return frozenset(found - set(tokenize(question, target)))


def english_terms(question: str, language: str) -> frozenset[str]:
    """`translated_terms` into English: what the retrieval of a non-English question adds."""
    return translated_terms(question, language, "en")
