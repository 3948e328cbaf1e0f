"""The text of the Aurora Payment Scheme sample corpus, in the markup of make_sample_corpus.parse_markup.

Everything here is fiction written to read like a real scheme's documents. Facts that the golden
question sets rely on are listed (with their pages) in examples/rulebooks/README.md, which the
generator writes from FACTS below after locating each phrase in the rendered PDFs.
"""

from __future__ import annotations

ISIN = "BE6493028177"  # valid check digit; verified by the generator
CORRUPT_ID = "PS-14"
USER_PASSWORD_ID = "PS-15"
OWNER_ONLY_ID = "PS-06"
SCANNED_ID = "PS-16"

SECRETARIAT = "APS Secretariat"

# ---------------------------------------------------------------------------------------------
# PS-01 Scheme Rulebook
# ---------------------------------------------------------------------------------------------

PS01 = """
The Aurora Payment Scheme Rulebook sets out the rules, practices and standards that every
participant in the Aurora Payment Scheme (APS) must follow. It is the umbrella document of the
APS rulebook set: the instrument rulebooks (credit transfer, direct debit, card and device
acceptance) and the operational rulebooks (settlement, fraud, fees, disputes, messaging) apply
together with it. Where an instrument rulebook and this rulebook conflict, this rulebook prevails
unless the instrument rulebook expressly states otherwise.

This version was approved by the Aurora Scheme Board on 14 March 2025 and enters into force on
1 June 2025. It replaces version 2024.2 in its entirety.

::table grid w=2,2,6 Table 0.1 - Document history
Version | Date | Change
2023.1 | 20 November 2023 | First edition, approved at the founding meeting of the Scheme Board.
2024.2 | 18 June 2024 | Participant categories extended to technical participants; appeals procedure added.
2025.1 | 14 March 2025 | Liability cap raised; sanctions table restructured; exit notice period shortened to six months.
::end

# 1 Introduction and scope

## 1.1 Purpose of this rulebook

The Aurora Payment Scheme is a set of interbank rules that lets payment service providers (PSPs)
in the participating countries offer euro payments to their customers on common terms. The scheme
does not itself move money: participants exchange payment messages through one or more clearing
and settlement mechanisms (CSMs) and settle the resulting obligations in central bank money.

This rulebook defines who may participate, how the scheme is governed, how rules are changed,
and what happens when a participant breaches them. It does not describe the processing of any
individual payment instrument; those details live in the instrument rulebooks listed in
section 1.3.

## 1.2 Scope of the scheme

The scheme covers euro-denominated payments between accounts held with participants established
in Belgium, the Netherlands, Luxembourg, France and Germany (the Aurora Area). Payments in other
currencies, cheques and cash services are outside its scope. A participant may extend the
services to customers outside the Aurora Area provided the accounts concerned are held in the
Aurora Area and the participant applies the same rules to those customers.

The scheme is technology neutral. A payment may be initiated by card, by mobile application, by
a wearable or by any other payment device certified under Rulebook PS-04, section 3.2.

## 1.3 Structure of the rulebook set

::table grid w=1.4,4.6,2 Table 1.1 - The APS rulebook set
Id | Title | Audience
PS-01 | Aurora Payment Scheme Rulebook (this document) | All participants
PS-02 | Aurora Credit Transfer Rulebook | All participants
PS-03 | Aurora Direct Debit Rulebook | All participants
PS-04 | Card and Device Acceptance Rulebook | Acquirers and issuers
PS-05 | Merchant Rulebook (Dutch and French editions) | Merchants and acquirers
PS-06 | Settlement and Clearing Rulebook | Operations and treasury
PS-07 | Fraud and Risk Management Rulebook | Risk officers only
PS-08 | Fees and Charges Schedule | All participants
PS-09 | Disputes and Chargebacks Rulebook | All participants
PS-10 | Messaging and Technical Specification | Operations and IT
::end

# 2 Definitions

## 2.1 Defined terms

Capitalised terms used in the rulebook set have the meaning given below. Terms defined in a
specific rulebook apply only within that rulebook.

::table plain w=2.2,7.8 Table 2.1 - Defined terms
Term | Meaning
Aurora Business Day | A day on which the APS settlement service is open, as listed in Rulebook PS-06, section 5.1.
Participant | A PSP that has adhered to the scheme and has not left it or been expelled.
Payment Device | Any physical or digital object that carries a Device Token and is certified to initiate payments.
Device Token | A surrogate value that stands in for the account number inside a Payment Device.
Scheme Board | The body that approves the rulebooks and decides on admissions and sanctions.
SMC | The Scheme Management Committee, which prepares rule changes and monitors compliance.
CSM | A clearing and settlement mechanism approved by the Scheme Board.
::end

## 2.2 Interpretation

Headings are for convenience only. References to a time of day are to Central European Time
(CET or CEST, as applicable). A period expressed in Aurora Business Days excludes the day on
which the event that starts the period occurs. "Including" means "including without limitation".
Amounts are in euro unless stated otherwise.

Where a rulebook sets a deadline that falls on a day that is not an Aurora Business Day, the
deadline moves to the next Aurora Business Day, except for the refund and fraud reporting
periods, which run in calendar days.

# 3 Participation

## 3.1 Eligibility criteria

An applicant may join the scheme if it (a) is authorised as a credit institution, payment
institution or electronic money institution in the European Economic Area; (b) holds, directly
or through a settlement agent, an account that allows settlement in central bank money; (c) has
passed the technical certification tests of Rulebook PS-10; and (d) has adopted a fraud
management framework that meets Rulebook PS-07, section 2.2.

An applicant that is part of a group may adhere for several group entities in one application,
but each entity becomes a separate participant with its own obligations.

## 3.2 Application procedure

Applications are filed with the APS Secretariat using the adherence pack. The Secretariat checks
completeness within 10 Aurora Business Days. The Scheme Board decides on a complete application
within 45 Aurora Business Days. A rejected applicant may appeal under section 5.3 and may not
reapply within 12 months of the rejection.

The admission takes effect on the first day of the calendar month after the decision, provided
the applicant has paid the onboarding fee set in Rulebook PS-08, section 2.2.

## 3.3 Participant categories

::table grid w=2.2,4.8,3 Table 3.1 - Participant categories
Category | Description | Settlement
Direct participant | Connects to a CSM in its own name and settles its own positions. | Own settlement account
Indirect participant | Reaches the scheme through a direct participant acting as its sponsor. | Through the sponsor
Technical participant | Operates infrastructure for others (processors, token service providers) but holds no customer accounts. | Not applicable
::end

A sponsor remains liable towards the other participants for the payments it sends on behalf of
its indirect participants.

# 4 Governance

## 4.1 Scheme Board

The Scheme Board has nine members: five elected by the direct participants, three elected by the
indirect participants and one independent chair appointed by the other eight. Members serve
three-year terms, renewable once. The Board takes decisions by simple majority; a quorum of six
members is required. Decisions to expel a participant require a two-thirds majority of the
members present.

## 4.2 Scheme Management Committee

The Scheme Management Committee (SMC) prepares rulebook changes, interprets the rules and
monitors compliance. It reports to the Scheme Board quarterly. Interpretations issued by the SMC
are published as clarification papers and bind participants until the Board decides otherwise.

## 4.3 Change management cycle

Rule changes follow a yearly cycle. Any participant, the SMC or a CSM may submit a change request.

::table grid w=3,3,4 Table 4.1 - Yearly change cycle
Phase | Period | Outcome
Submission of change requests | 1 January to 31 March | Change requests registered by the Secretariat
Public consultation | 1 May to 31 July | Consultation responses published
Board decision | September meeting | Approved changes announced
Entry into force | Third Sunday of November of the following year | New rulebook versions apply
::end

Urgent changes needed for legal or security reasons may follow a fast-track procedure with a
consultation of at least 30 calendar days.

# 5 Compliance and sanctions

## 5.1 Compliance reporting

Each participant sends the SMC an annual self-certification of compliance signed by a member of
its management body no later than 31 January. A participant must report any material breach of
the rules within 5 Aurora Business Days of becoming aware of it. Fraud-related breaches follow
the reporting rules of Rulebook PS-07, section 2.3, which take precedence.

## 5.2 Sanctions for non-compliance

::table grid w=2,4.5,3.5 Table 5.1 - Sanctions by breach category
Breach category | Example | Sanction
Minor | Late self-certification | Written warning
^ | Incomplete reporting of statistics | Written warning
Serious | Repeated late settlement | Fine of EUR 25,000 per breach
^ | Failure to apply a refund right | Fine of EUR 25,000 per breach
Critical | Knowingly processing fraudulent payments | Suspension or expulsion
::end

Fines are capped at EUR 250,000 per participant per calendar year. The Scheme Board may publish
the name of a participant that has been fined for a serious or critical breach.

## 5.3 Appeals

A participant may appeal a sanction or a rejected application to the Appeals Committee within
30 calendar days of the notification. The appeal does not suspend a suspension decision but does
suspend the payment of a fine. The Appeals Committee decides within 60 calendar days.

# 6 Liability and data protection

## 6.1 Liability cap

A participant is liable towards another participant for direct losses caused by its breach of the
rulebooks. The liability of a participant for any one event is capped at EUR 5,000,000, except in
case of fraud or wilful misconduct. Indirect losses, including loss of profit, are excluded.

## 6.2 Personal data

Participants process personal data of payers and payees as independent controllers under the
General Data Protection Regulation. Payment data exchanged in the scheme may be used only to
execute the payment, to prevent fraud and to meet legal obligations.

## 6.3 Retention of records

Participants keep payment messages and the related audit trail for at least seven years after the
end of the calendar year in which the payment was executed. Device certification records are kept
for as long as the device is in use and seven years thereafter.

# 7 Termination and exit

## 7.1 Voluntary exit

A participant may leave the scheme by giving the Secretariat six months' written notice, ending on
the last day of a calendar quarter. During the notice period it remains bound by all rules and
must keep processing R-transactions that relate to payments it executed before the exit date.

## 7.2 Suspension and expulsion

The Scheme Board may suspend a participant with immediate effect when its licence is withdrawn,
when it fails to settle, or when it commits a critical breach. A suspended participant may not
send new payments but must receive R-transactions. Expulsion follows if the cause of the
suspension is not remedied within 90 calendar days.

## 7.3 Wind-down obligations

A leaving or expelled participant must continue to honour refund claims and chargebacks for 13
months after its last payment, and must inform its customers at least two months before it stops
offering scheme payments.
"""

# ---------------------------------------------------------------------------------------------
# PS-02 Credit Transfer Rulebook
# ---------------------------------------------------------------------------------------------

PS02 = """
This rulebook describes the Aurora Credit Transfer: a euro credit transfer executed between
participants of the Aurora Payment Scheme within one Aurora Business Day. It applies together
with the Aurora Payment Scheme Rulebook (PS-01) and is implemented with the ISO 20022 messages
specified in Rulebook PS-10.

::table grid w=2,2,6 Table 0.1 - Document history
Version | Date | Change
2024.1 | 21 March 2024 | First edition.
2025.1 | 14 March 2025 | Verification of payee made mandatory; recall deadline for fraud extended to 13 months.
::end

# 1 Scope

## 1.1 The Aurora Credit Transfer

An Aurora Credit Transfer is a payment instruction given by an originator to its PSP to transfer
an amount in euro to the account of a beneficiary. Both accounts must be held with participants.
The originator PSP must execute the instruction on the day it is received if it is received
before the originator PSP's own cut-off time, and no later than the Aurora Business Day
following receipt (D+1).

## 1.2 Reachability

Every participant that offers current accounts to consumers must be reachable for Aurora Credit
Transfers on all those accounts. Reachability is published in the APS Register of Participants,
updated every Aurora Business Day at 18:00 CET.

## 1.3 Currency and amounts

The scheme supports only euro. There is no scheme maximum amount other than the technical maximum
of EUR 999,999,999.99 per transaction; the minimum is EUR 0.01. Participants may set lower
limits for their own customers but must disclose them in their terms and conditions.

# 2 Roles of the actors

## 2.1 Originator

The originator is the natural or legal person that holds the account to be debited and gives
the instruction. The originator must supply the beneficiary's IBAN and name. The BIC of the
beneficiary PSP is not required.

## 2.2 Originator PSP

The originator PSP authenticates the originator, checks that funds are available, performs the
verification of payee described in section 6.2 and sends the payment to the CSM in a
pacs.008.001.08 message.

## 2.3 Beneficiary PSP

The beneficiary PSP credits the beneficiary's account with the full amount of the transfer, no
later than the end of the Aurora Business Day on which its own account was credited. It may not
deduct charges from the amount transferred (the SHA charging principle applies).

## 2.4 Clearing and settlement mechanism

A CSM approved under Rulebook PS-06, section 1.2 routes the messages between participants and
settles them in the settlement cycles of Rulebook PS-06, section 3.2.

# 3 Business requirements

## 3.1 Mandatory data set

::table grid w=1.3,4.2,1.5,3 Table 3.1 - Credit transfer data set (DS-CT)
Attribute | Description | Mandatory | ISO 20022 element
CT-A01 | IBAN of the originator | Yes | DbtrAcct/Id/IBAN
CT-A02 | Name of the originator | Yes | Dbtr/Nm
CT-A03 | Amount in euro | Yes | IntrBkSttlmAmt
CT-A04 | Remittance information | No | RmtInf
CT-A05 | IBAN of the beneficiary | Yes | CdtrAcct/Id/IBAN
CT-A06 | Name of the beneficiary | Yes | Cdtr/Nm
CT-A07 | Requested execution date | Yes | ReqdExctnDt
CT-A08 | Purpose code | No | Purp/Cd
::end

## 3.2 Remittance information

Remittance information is either unstructured, up to 140 characters, or structured with a
creditor reference following ISO 11649 (the RF reference, for example RF18 5390 0754 7034).
Participants must pass remittance information unaltered to the beneficiary. Rule CT-R3 forbids
truncating the unstructured field.

# 4 Processing

## 4.1 Execution and cut-off times

The originator PSP submits payments to the CSM before the cut-off of the last settlement cycle,
15:30 CET. A payment submitted after 15:30 CET is settled in the first cycle of the next Aurora
Business Day. The cycles themselves are defined in Rulebook PS-06, section 3.2. Rule CT-R4
requires the beneficiary PSP to make funds available within 2 hours of settlement.

## 4.2 Rejects before settlement

A payment that cannot be processed is rejected before settlement with a pacs.002.001.10 status
report carrying one of the following reason codes.

::table grid w=1.3,4.5,4.2 Table 4.1 - Reject reason codes
Code | Meaning | Typical sender
AC01 | Account identifier incorrect (invalid IBAN) | CSM or beneficiary PSP
AC04 | Account closed | Beneficiary PSP
AC06 | Account blocked | Beneficiary PSP
AG01 | Transaction forbidden on this type of account | Beneficiary PSP
AM05 | Duplicate payment | CSM
FF01 | Invalid file format | CSM
RR04 | Regulatory reason (for example sanctions screening) | Any PSP
::end

## 4.3 Returns after settlement

A beneficiary PSP that cannot credit the account after settlement returns the funds with a
pacs.004.001.09 message within 3 Aurora Business Days of settlement. The returned amount equals
the original amount; no fees may be deducted. The same reason codes as in Table 4.1 apply,
with MS03 (reason not specified) allowed only for returns.

# 5 Recalls

## 5.1 Recall reasons

The originator PSP may ask for a settled payment to be returned by sending a camt.056.001.08
recall message. The scheme allows three PSP-initiated recall reasons - DUPL (duplicate payment),
TECH (technical problem) and FRAD (fraudulent origin) - and three originator-initiated reasons:
AC03 (wrong beneficiary IBAN), AM09 (wrong amount) and CUST (customer request).

## 5.2 Recall timelines

::table grid w=2.2,2.6,2.6,2.6 Table 5.1 - Recall deadlines
Recall reason | Request deadline | Response deadline | Answer if negative
DUPL | 10 Aurora Business Days after settlement | 15 Aurora Business Days after receipt of the recall | camt.029.001.09
TECH | ^ | ^ | ^
FRAD | 13 months after settlement | ^ | ^
AC03 | 13 months after settlement | 15 Aurora Business Days; consent of the beneficiary required | ^
AM09 | ^ | ^ | ^
CUST | ^ | ^ | ^
::end

A positive answer is a pacs.004.001.09 return with reason FOCR (following cancellation request).
The beneficiary PSP may charge a recall fee as set out in Rulebook PS-08, section 3.3.

# 6 Security and fraud prevention

## 6.1 Authentication

The originator PSP applies strong customer authentication (SCA) to every credit transfer
initiated online, unless an exemption of Rulebook PS-07, section 3.2 applies. Rule CT-R6
requires the authentication code to be bound to the amount and the beneficiary IBAN.

## 6.2 Verification of payee

Before the originator authorises a credit transfer, the originator PSP checks the beneficiary
name against the IBAN with the beneficiary PSP (rule CT-R7). The outcome is one of: match,
close match (the correct name is shown), no match, or check not possible. On no match the
originator must confirm explicitly before the payment is sent. A beneficiary PSP must answer a
verification request within 5 seconds.
"""

# ---------------------------------------------------------------------------------------------
# PS-03 Direct Debit Rulebook
# ---------------------------------------------------------------------------------------------

PS03 = """
This rulebook sets out the Aurora Direct Debit, a euro collection initiated by a creditor on the
basis of a mandate given by the debtor. It has a Core variant for all debtors and a Business
variant reserved for debtors that are not consumers.

::table grid w=2,2,6 Table 0.1 - Document history
Version | Date | Change
2024.1 | 21 March 2024 | First edition.
2025.1 | 14 March 2025 | Mandate expiry shortened to 36 months; pre-notification rules clarified.
::end

# 1 Scope

## 1.1 The Aurora Direct Debit

The Aurora Direct Debit allows a creditor to collect funds from a debtor's account held with a
participant. The debtor authorises the creditor and its own PSP through a mandate. Collections
are in euro only and are executed on the due date the creditor indicates.

## 1.2 Core and Business variants

In the Core variant the debtor has an unconditional refund right during eight weeks after the
debit (section 5.1). In the Business variant the debtor has no refund right for authorised
collections, and the debtor PSP must verify each collection against the mandate data the debtor
has registered (section 6.2).

# 2 Mandates

## 2.1 Mandate content

A mandate contains at least the unique mandate reference (up to 35 characters), the creditor
identifier (for example BE69ZZZ0123456789), the name and IBAN of the debtor, the type of payment
(recurrent or one-off), the date of signature and the signature itself. Electronic mandates
signed in the debtor PSP's online banking are equivalent to paper mandates.

## 2.2 Mandate amendments

When the creditor changes the mandate reference, the creditor identifier or the creditor name,
it marks the next collection with the amendment indicator and the original values. A change of
the debtor's account to another PSP is flagged with the code SMNDA (same mandate with a new
debtor agent).

## 2.3 Mandate expiry

A mandate expires if no collection has been presented under it for 36 months. The creditor
must then obtain a new mandate. Rule DD-R2 requires the creditor to keep the mandate for the
lifetime of the mandate and 14 months after its expiry or cancellation.

# 3 Collection

## 3.1 Pre-notification

The creditor informs the debtor of the amount and due date at least 14 calendar days before the
due date, unless the debtor and the creditor have agreed a different period. A single
pre-notification may cover a schedule of recurrent collections.

## 3.2 Submission deadlines

::table grid w=2.4,2.6,5 Table 3.1 - Latest submission to the debtor PSP
Sequence type | Latest submission | Remark
FRST (first) | D-1 Aurora Business Day | D is the due date
RCUR (recurrent) | D-1 Aurora Business Day | ^
OOFF (one-off) | D-1 Aurora Business Day | ^
FNAL (final) | D-1 Aurora Business Day | Last collection under the mandate
Business variant | D-1 Aurora Business Day | Debtor PSP must have mandate data by D-2
::end

A collection may be presented up to 14 calendar days before the due date.

## 3.3 Messages

The creditor sends collections to its PSP in a pain.008.001.08 message; participants exchange
them in pacs.003.001.08 messages as specified in Rulebook PS-10, section 3.2.

# 4 R-transactions

## 4.1 Rejects

A reject is a collection refused before settlement, for technical reasons or because the debtor
PSP cannot process it (for example an account closed). The debtor may also ask its PSP to refuse
all collections from a given creditor (a block list) or above a maximum amount.

## 4.2 Returns

::table grid w=1.3,5,3.7 Table 4.1 - Return reason codes
Code | Meaning | Deadline
AC04 | Account closed | 5 Aurora Business Days after settlement
AC06 | Account blocked | 5 Aurora Business Days after settlement
AM04 | Insufficient funds | 5 Aurora Business Days after settlement
MD01 | No valid mandate | 5 Aurora Business Days after settlement
MD07 | Debtor deceased | 5 Aurora Business Days after settlement
MS02 | Refusal by the debtor | 5 Aurora Business Days after settlement
MS03 | Reason not specified | 5 Aurora Business Days after settlement
SL01 | Specific service offered by the debtor PSP | 5 Aurora Business Days after settlement
::end

## 4.3 Refusals

A debtor may refuse a collection before the due date by instructing its PSP. The PSP then
returns the collection with reason MS02 on the due date.

# 5 Refunds

## 5.1 Refund rights

::table grid w=2.6,1.5,2.4,3.5 Table 5.1 - Refund rights in the Core variant
Situation | Reason code | Claim period | Compensation
Authorised collection, no questions asked | MD06 | 8 weeks after the debit date | Amount plus compensation at the Euro Short-Term Rate
Unauthorised collection (no mandate) | MD01 | 13 months after the debit date | ^
Unauthorised collection, Business variant | MD01 | 13 months after the debit date | Amount only
::end

The debtor PSP must refund an MD06 claim within 10 Aurora Business Days of receiving it. For an
MD01 claim it asks the creditor PSP for a copy of the mandate and decides within 30 Aurora
Business Days. Card and device refunds follow different deadlines: see Rulebook PS-09, section
4.2.1.

## 5.2 Refund processing

The debtor PSP sends the refund to the creditor PSP in a pacs.004.001.09 message with reason
code MD06 or MD01. The compensation covers the interest the debtor lost and is calculated at the
Euro Short-Term Rate (EUR STR) from the debit date to the refund date, with a minimum of zero.

# 6 Business variant

## 6.1 No refund for authorised collections

In the Business variant the debtor waives the eight-week refund right. A debtor that claims an
unauthorised collection within 13 months is refunded the amount only.

## 6.2 Debtor PSP verification

Before debiting, the debtor PSP checks each Business variant collection against the mandate data
registered by the debtor (mandate reference, creditor identifier, maximum amount, frequency).
Rule DD-R5 requires a collection that does not match to be returned with reason code MD01.
"""

# ---------------------------------------------------------------------------------------------
# PS-04 Card and Device Acceptance Rulebook
# ---------------------------------------------------------------------------------------------

PS04 = """
This rulebook governs the acceptance of Aurora card and device payments at merchants: which
payment devices may be used, how they are certified, what terminals must do, and what happens
when a device is lost or compromised. It is addressed to acquirers and issuers; merchants find
the rules that concern them in the Merchant Rulebook (PS-05), published in Dutch and French.

::table grid w=2,2,6 Table 0.1 - Document history
Version | Date | Change
2024.1 | 21 March 2024 | First edition (cards, phones and watches).
2025.1 | 14 March 2025 | Connected household devices and fashion wearables admitted; limits per device category.
::end

# 1 Scope and definitions

## 1.1 Purpose

Aurora payments at the point of sale are initiated with a payment device that holds a Device
Token issued by the payer's PSP (the issuer). The merchant's PSP (the acquirer) processes the
payment and credits the merchant. This rulebook sets the minimum requirements that make a device
payment safe, whatever the device looks like.

## 1.2 Definitions

Form factor: the physical shape of a payment device (card, phone, watch, ring, appliance, garment).
Connected Household Device: a household appliance with a network connection and a secure element
that can order goods or services on behalf of its registered owner, such as a connected
refrigerator. Wearable: a payment device worn on the body or carried as an accessory, including
jewellery, cufflinks, handbags and garments. Device Certificate: the certificate issued by the
Aurora Device Certification Body (ADCB) under rule AT-R3.

# 2 Acceptance obligations

## 2.1 Honour all devices

Rule AT-R1: a merchant that accepts Aurora payments must accept every certified payment device
that its terminal can read, whatever the issuer and the form factor. A merchant may not refuse a
payment because it is made with a wearable rather than a card.

## 2.2 Acceptance mark

Rule AT-R2: the Aurora acceptance mark must be displayed at the entrance of the shop, at each
point of interaction and on the checkout page of a web shop. The mark may not be smaller than
20 millimetres wide on a physical display.

## 2.3 No surcharging

Rule AT-R9: a merchant may not charge the payer a fee for paying with an Aurora card or payment
device. Discounts for other means of payment are allowed if they are shown before the purchase.

# 3 Payment devices

## 3.1 Accepted payment devices

The following payment devices are accepted for Aurora payments, provided the device holds a
valid Device Certificate (rule AT-R3) and the payment stays within the limit for its category.
Payments above the limit per transaction require strong customer authentication on a phone or
card, or are declined.

::table grid w=2.6,3.6,1.5,2.3 Table 3.1 - Accepted payment devices
Device category | Examples | Rule | Limit per transaction
Payment cards | Debit and credit cards with contactless chip | AT-R3 | EUR 50 contactless without PIN; no limit with PIN
Phones and watches | Mobile wallets, smartwatches | AT-R3 | No scheme limit (SCA on the device)
Connected refrigerators | Smart fridges that reorder groceries (connected refrigerator with payment module) | AT-R4 | EUR 150
Other connected household devices | Coffee machines, washing machines ordering consumables | AT-R4 | EUR 75
Jewellery wearables | Rings, bracelets, cufflinks with embedded NFC token | AT-R6 | EUR 50
Fashion accessories | Handbag or wallet with integrated payment chip | AT-R6 | EUR 50
Garments | Jackets, gloves and sportswear with a sewn-in payment tag | AT-R7 | EUR 50
::end

So yes: a customer can pay with a connected refrigerator (a fridge), with cufflinks, with a
handbag or with a garment, as long as the device is certified and the payment respects the limits
and conditions of sections 3.3 and 3.4. Devices not listed in Table 3.1, such as car keys or
toys, are not accepted until the ADCB has certified their category.

## 3.2 Device certification

Rule AT-R3: every payment device model must be certified by the Aurora Device Certification Body
before it is issued to customers. The ADCB tests the secure element, the contactless interface
and the tamper resistance of the device. A successful test results in a Device Certificate with
a number of the form ADC-2025-0147, valid for three years. The issuer must withdraw the Device
Token from every device of a model whose certificate has expired or been revoked within 30
calendar days.

Certification costs EUR 12,000 per device model and EUR 3,000 per renewal. Issuers may rely on
a certificate obtained by the device manufacturer.

## 3.3 Connected household devices

Rule AT-R4: a connected refrigerator or other Connected Household Device may pay only for
replenishment orders from merchants the owner has enrolled in the device's app. The limit per
transaction is EUR 150 for a connected refrigerator and EUR 75 for other household devices, with
a cumulative limit of EUR 600 per calendar month per device. Every order above EUR 50 must be
confirmed by the owner on the device display or in the app before it is paid.

Rule AT-R5: the Device Token of a household device is bound to one registered owner and one
postal address. Moving the device to another address requires a new enrolment. Issuers must
offer a one-tap freeze of the device in their mobile app.

## 3.4 Wearables and fashion items

Rule AT-R6: jewellery and fashion wearables (rings, bracelets, cufflinks, handbags) may be used
for contactless payments up to EUR 50 per transaction. After five consecutive payments or a
cumulative EUR 150 without strong customer authentication, the next payment requires SCA on a
phone or at the terminal with a PIN.

Rule AT-R7: a garment with a payment tag must keep working after at least 40 washing cycles at
40 degrees Celsius, and the tag must be deactivatable from the issuer's app. The limits of rule
AT-R6 apply to garments.

# 4 Terminals

## 4.1 Terminal certification

Rule AT-R8: every point-of-sale terminal that accepts Aurora payments must hold a valid terminal
certificate and run a software version that is supported by its vendor. Acquirers must replace
terminals whose certificate expires within six months of the expiry date.

## 4.2 Offline transactions

Terminals may approve a payment offline only for cards and only up to a floor limit of EUR 25.
Offline approval is never allowed for Connected Household Devices or for wearables. Offline
payments must be sent to the acquirer within 24 hours.

## 4.3 Terminal software updates

Security updates published by a terminal vendor must be installed within 30 calendar days, or
within 5 calendar days for updates classified critical by the SMC.

# 5 Fees for merchants

## 5.1 Merchant service charge

The acquirer charges the merchant a merchant service charge that it sets freely. The scheme fees
and interchange that acquirers pay, including the higher fee for connected device payments, are
set in the Fees and Charges Schedule: see Rulebook PS-08, section 3.2.

::table grid w=3,2.5,4.5 Table 5.1 - Components of the merchant service charge
Component | Set by | Paid to
Interchange fee | Scheme (PS-08) | Issuer
Scheme fee | Scheme (PS-08) | APS
Acquirer margin | Acquirer | Acquirer
Refund processing fee | Scheme (PS-08) | APS
::end

# 6 Security incidents

## 6.1 Lost or stolen devices

A payer must report the loss or theft of a payment device to the issuer without undue delay and
in any case within 24 hours of noticing it. Until the report, the payer bears losses up to
EUR 50; after the report, the issuer bears all losses unless the payer acted fraudulently.

## 6.2 Compromised devices

If a device model is found to be compromised, the ADCB suspends its Device Certificate and the
issuers freeze all Device Tokens of that model within 2 hours. Risk officers follow the escalation
procedure of Rulebook PS-07, section 4.1.
"""

# ---------------------------------------------------------------------------------------------
# PS-05 Merchant Rulebook, Dutch and French editions
# ---------------------------------------------------------------------------------------------

PS05_NL = """
Dit reglement bevat de regels die gelden voor handelaars die betalingen van de Aurora Payment
Scheme aanvaarden. Het wordt uitgegeven in het Nederlands en in het Frans; beide versies hebben
dezelfde waarde, behalve de bijlagen die alleen voor één land gelden. De regels voor acquirers en
issuers staan in het reglement Kaart- en toestelaanvaarding (PS-04).

::table grid w=2,2,6 Tabel 0.1 - Versiegeschiedenis
Versie | Datum | Wijziging
2024.1 | 21 maart 2024 | Eerste uitgave.
2025.1 | 14 maart 2025 | Verbonden huishoudtoestellen en draagbare betaalmiddelen toegevoegd; bijlage voor Nederland.
::end

# 1 Toepassingsgebied

## 1.1 Doel

Dit reglement legt vast onder welke voorwaarden een handelaar Aurora-betalingen mag aanvaarden,
hoe de handelaar wordt uitbetaald en hoe geschillen met klanten worden behandeld. Het is van
toepassing op fysieke winkels, webwinkels en automaten.

## 1.2 Definities

Handelaar: de onderneming die goederen of diensten verkoopt en een contract heeft met een
acquirer. Acquirer: de betalingsdienstaanbieder die de betalingen voor de handelaar verwerkt.
Betaalmiddel: elke kaart of elk toestel met een geldig apparaatcertificaat, zoals een
smartphone, een horloge of een verbonden koelkast.

# 2 Aansluiting van handelaars

## 2.1 Aansluitingsvoorwaarden

Een handelaar kan zich aansluiten als hij ingeschreven is in de Kruispuntbank van Ondernemingen
(KBO) of een gelijkwaardig register, een zakelijke rekening (IBAN) heeft bij een deelnemer en de
identificatie van zijn uiteindelijke begunstigden heeft laten controleren. De acquirer beslist
binnen 10 werkdagen over een volledige aanvraag.

## 2.2 Duur en opzegging

Het contract wordt gesloten voor onbepaalde duur. De handelaar kan het op elk moment opzeggen met
een opzegtermijn van drie maanden. De acquirer kan het opzeggen met een opzegtermijn van zes
maanden, of onmiddellijk bij fraude of bij herhaalde schending van dit reglement.

# 3 Aanvaarding van betalingen

## 3.1 Aanvaarde betaalmiddelen

De handelaar aanvaardt alle gecertificeerde betaalmiddelen die zijn betaalterminal kan lezen:
betaalkaarten, smartphones en horloges, maar ook een verbonden koelkast die boodschappen
bijbestelt, manchetknopen of ringen met een ingebouwde betaalchip, een handtas met betaalchip en
een kledingstuk met een ingenaaide betaaltag. Voor een verbonden koelkast geldt een limiet van
EUR 150 per transactie, voor manchetknopen, handtassen en kledingstukken EUR 50 per transactie.
Voor de certificering van deze toestellen: zie Reglement PS-04, afdeling 3.2.

::table grid w=3.5,3,3.5 Tabel 3.1 - Betaalmiddelen en limieten
Betaalmiddel | Limiet per transactie | Bijzondere voorwaarde
Betaalkaart (contactloos) | EUR 50 zonder pincode | Hoger bedrag met pincode
Verbonden koelkast | EUR 150 | Alleen bij ingeschreven handelaars
Manchetknopen, ringen | EUR 50 | Sterke authenticatie na vijf betalingen
Handtas | EUR 50 | ^
Kledingstuk | EUR 50 | ^
::end

## 3.2 Kassabon

Voor elke betaling biedt de handelaar een kassabon aan, op papier of elektronisch. De kassabon
vermeldt de naam van de handelaar, de datum en het uur, het bedrag, de laatste vier tekens van
het Device Token en het autorisatienummer. Handelaars bewaren een kopie gedurende 13 maanden.

# 4 Vergoedingen en uitbetaling

## 4.1 Uitbetaling

De acquirer betaalt de handelaar uit op de eerste werkdag na de betaling (D+1), uiterlijk om
06:00 uur. Een handelaar kan tegen betaling kiezen voor uitbetaling op de dag zelf.

## 4.2 Tarieven

::table grid w=2.4,3,2,2.6 Tabel 4.1 - Standaardtarieven voor handelaars
Segment | Betaling | Tarief | Terugbetaling
Binnenlands | Kaart aanwezig | 0,95 % | EUR 0,25 per terugbetaling
^ | Kaart niet aanwezig | 1,40 % | ^
^ | Verbonden toestel of draagbaar betaalmiddel | 1,10 % | ^
Grensoverschrijdend | Binnen de EER | 1,60 % | ^
^ | Buiten de EER | 2,75 % | ^
::end

De acquirer mag andere tarieven afspreken; dit zijn de tarieven die gelden zonder afspraak.

# 5 Geschillen en klachten

## 5.1 Terugboekingen

Als een klant een betaling betwist, verwittigt de acquirer de handelaar. De handelaar heeft 10
werkdagen om bewijsstukken te bezorgen, zoals de kassabon of het leveringsbewijs. Zonder antwoord
wordt het bedrag teruggeboekt.

## 5.2 Klachten

Klachten van handelaars over de acquirer worden eerst bij de acquirer ingediend. Als de handelaar
binnen 30 dagen geen bevredigend antwoord krijgt, kan hij zich wenden tot het APS Secretariaat.

# A Bijzondere regels voor handelaars in Nederland

## A.1 Registratie

Handelaars die in Nederland gevestigd zijn, vermelden hun KvK-nummer (Kamer van Koophandel) in
plaats van het KBO-nummer. De acquirer controleert het KvK-nummer in het Handelsregister voor de
aansluiting.

## A.2 Betalen met Aurora QR

In Nederland mogen handelaars ook Aurora QR aanbieden: de klant scant een QR-code en keurt de
betaling goed in de app van zijn bank. De limiet voor Aurora QR bedraagt EUR 500 per transactie.
De QR-code moet op het scherm worden getoond en mag niet langer dan 120 seconden geldig zijn.
"""

PS05_FR = """
Le présent règlement contient les règles applicables aux commerçants qui acceptent les paiements
de l'Aurora Payment Scheme. Il est publié en néerlandais et en français ; les deux versions ont
la même valeur, à l'exception des annexes qui ne concernent qu'un seul pays. Les règles destinées
aux acquéreurs et aux émetteurs figurent dans le règlement Acceptation des cartes et appareils
(PS-04).

::table grid w=2,2,6 Tableau 0.1 - Historique des versions
Version | Date | Modification
2024.1 | 21 mars 2024 | Première édition.
2025.1 | 14 mars 2025 | Appareils domestiques connectés et moyens de paiement portables ajoutés ; annexe pour le Luxembourg.
::end

# 1 Champ d'application

## 1.1 Objet

Le présent règlement fixe les conditions dans lesquelles un commerçant peut accepter les paiements
Aurora, la manière dont il est payé et le traitement des litiges avec les clients. Il s'applique
aux magasins physiques, aux boutiques en ligne et aux automates.

## 1.2 Définitions

Commerçant : l'entreprise qui vend des biens ou des services et qui a conclu un contrat avec un
acquéreur. Acquéreur : le prestataire de services de paiement qui traite les paiements pour le
commerçant. Moyen de paiement : toute carte ou tout appareil muni d'un certificat d'appareil
valide, tel qu'un smartphone, une montre ou un réfrigérateur connecté.

# 2 Affiliation des commerçants

## 2.1 Conditions d'affiliation

Un commerçant peut s'affilier s'il est inscrit à la Banque-Carrefour des Entreprises (BCE) ou dans
un registre équivalent, s'il dispose d'un compte professionnel (IBAN) auprès d'un participant et
s'il a fait vérifier l'identité de ses bénéficiaires effectifs. L'acquéreur statue sur une
demande complète dans les 10 jours ouvrables.

## 2.2 Durée et résiliation

Le contrat est conclu pour une durée indéterminée. Le commerçant peut le résilier à tout moment
moyennant un préavis de trois mois. L'acquéreur peut le résilier moyennant un préavis de six
mois, ou immédiatement en cas de fraude ou de violations répétées du présent règlement.

# 3 Acceptation des paiements

## 3.1 Moyens de paiement acceptés

Le commerçant accepte tous les moyens de paiement certifiés que son terminal peut lire : cartes
de paiement, smartphones et montres, mais aussi un réfrigérateur connecté qui commande des
courses, des boutons de manchette ou des bagues munis d'une puce de paiement, un sac à main doté
d'une puce de paiement et un vêtement avec une étiquette de paiement cousue. La limite est de
EUR 150 par transaction pour un réfrigérateur connecté et de EUR 50 par transaction pour les
boutons de manchette, les sacs à main et les vêtements. Pour la certification de ces appareils :
voir Règlement PS-04, section 3.2.

::table grid w=3.5,3,3.5 Tableau 3.1 - Moyens de paiement et limites
Moyen de paiement | Limite par transaction | Condition particulière
Carte de paiement (sans contact) | EUR 50 sans code PIN | Montant supérieur avec code PIN
Réfrigérateur connecté | EUR 150 | Uniquement auprès de commerçants enregistrés
Boutons de manchette, bagues | EUR 50 | Authentification forte après cinq paiements
Sac à main | EUR 50 | ^
Vêtement | EUR 50 | ^
::end

## 3.2 Ticket de caisse

Pour chaque paiement, le commerçant propose un ticket de caisse, sur papier ou sous forme
électronique. Le ticket mentionne le nom du commerçant, la date et l'heure, le montant, les quatre
derniers caractères du Device Token et le numéro d'autorisation. Les commerçants en conservent une
copie pendant 13 mois.

# 4 Commissions et paiement au commerçant

## 4.1 Paiement au commerçant

L'acquéreur paie le commerçant le premier jour ouvrable suivant le paiement (J+1), au plus tard à
06h00. Un commerçant peut opter, moyennant paiement, pour un versement le jour même.

## 4.2 Tarifs

::table grid w=2.4,3,2,2.6 Tableau 4.1 - Tarifs standard pour les commerçants
Segment | Paiement | Tarif | Remboursement
National | Carte présente | 0,95 % | EUR 0,25 par remboursement
^ | Carte non présente | 1,40 % | ^
^ | Appareil connecté ou moyen de paiement portable | 1,10 % | ^
Transfrontalier | Dans l'EEE | 1,60 % | ^
^ | Hors de l'EEE | 2,75 % | ^
::end

L'acquéreur peut convenir d'autres tarifs ; ce sont les tarifs applicables à défaut d'accord.

# 5 Litiges et réclamations

## 5.1 Rétrofacturations

Lorsqu'un client conteste un paiement, l'acquéreur en informe le commerçant. Le commerçant dispose
de 10 jours ouvrables pour fournir des justificatifs, comme le ticket de caisse ou la preuve de
livraison. À défaut de réponse, le montant est rétrofacturé.

## 5.2 Réclamations

Les réclamations des commerçants concernant l'acquéreur sont d'abord adressées à l'acquéreur. Si
le commerçant ne reçoit pas de réponse satisfaisante dans les 30 jours, il peut s'adresser au
Secrétariat APS.

# B Règles particulières pour le Luxembourg

## B.1 Immatriculation

Les commerçants établis au Luxembourg indiquent leur numéro d'immatriculation au Registre de
commerce et des sociétés (RCS) au lieu du numéro BCE. L'acquéreur vérifie ce numéro auprès du
Luxembourg Business Registers avant l'affiliation.

## B.2 Paiement au commerçant au Luxembourg

Pour les commerçants établis au Luxembourg, le versement a lieu au plus tard à 08h00 le premier
jour ouvrable suivant le paiement, en raison du calendrier de la chambre de compensation locale.
Les réclamations non résolues peuvent être portées devant la Commission de Surveillance du Secteur
Financier (CSSF) dans un délai d'un an.
"""

# ---------------------------------------------------------------------------------------------
# PS-06 Settlement and Clearing Rulebook (encrypted with an owner password only)
# ---------------------------------------------------------------------------------------------

PS06 = """
This rulebook describes how payments exchanged in the Aurora Payment Scheme are cleared and
settled: the clearing cycles, the settlement cycles in central bank money, the liquidity and
collateral that participants must provide, and the calendar of Aurora Business Days.

::table grid w=2,2,6 Table 0.1 - Document history
Version | Date | Change
2024.1 | 21 March 2024 | First edition with three settlement cycles.
2025.1 | 14 March 2025 | Five settlement cycles; prefunding floor raised to EUR 2,000,000.
::end

# 1 Scope

## 1.1 Application

This rulebook applies to direct participants and to the CSMs approved by the Scheme Board.
Indirect participants settle through their sponsor and are bound by it only through the sponsor
agreement.

## 1.2 Approved CSMs and the settlement agent

The Scheme Board approves a CSM when it meets the interoperability rules of Rulebook PS-10 and
settles in central bank money. The approved CSMs are AuroraClear and the Lowlands Automated
Clearing House (LACH). Settlement takes place on the books of the Aurora Settlement Agent, which
holds a technical account in the central bank real-time gross settlement system.

# 2 Clearing

## 2.1 Clearing cycles

::table plain w=2,3.5,2.5,2 Table 2.1 - Clearing cycles of AuroraClear
Cycle | Submission window | Settlement time | Files per cycle
C1 | 18:00 (D-1) to 07:00 | 07:30 | Unlimited
C2 | 07:00 to 10:00 | 10:30 | Unlimited
C3 | 10:00 to 13:00 | 13:30 | Unlimited
C4 | 13:00 to 15:00 | 15:30 | Unlimited
C5 | 15:00 to 16:30 | 17:00 | R-transactions only
::end

The CSM sends each participant a settlement report (camt.053.001.08) after each cycle.

## 2.2 Netting

Within a cycle the CSM calculates a multilateral net position for each participant. Positions are
settled as one debit or credit per participant per cycle. Payments in a cycle whose net debit
cannot be covered are not settled and move to the next cycle (rule ST-R2).

# 3 Settlement

## 3.1 Settlement accounts

Each direct participant holds a settlement account with the Aurora Settlement Agent, funded from
its central bank account. The balance may never be negative. Interest is not paid on settlement
accounts.

## 3.2 Settlement cycles

Settlement takes place in five cycles every Aurora Business Day, at 07:30, 10:30, 13:30, 15:30
and 17:00 CET. The 17:00 cycle settles only R-transactions (returns, refunds and recall
answers). A payment is final and irrevocable once the cycle in which it is included has settled
(rule ST-R1).

## 3.3 Settlement failure

If a participant cannot cover its net debit position within 30 minutes after a cycle, the
Settlement Agent uses the participant's collateral. If the collateral is insufficient, the
remaining shortfall is shared among the surviving direct participants in proportion to their
bilateral exposure to the failing participant in the previous 20 Aurora Business Days (the
loss-sharing rule ST-R5).

# 4 Liquidity and collateral

## 4.1 Prefunding

Each direct participant prefunds its settlement account before 07:00 CET with at least the higher
of EUR 2,000,000 and 120 percent of its largest net debit position in the previous 60 Aurora
Business Days.

## 4.2 Collateral

::table grid w=3,3,2,2 Table 4.1 - Eligible collateral and haircuts
Asset class | Issuer | Residual maturity | Haircut
Central bank deposit | Euro area central banks | Any | 0 %
Government bonds | Euro area, rated AA- or better | Up to 5 years | 2 %
^ | ^ | More than 5 years | 5 %
Covered bonds | Participants' covered bond programmes | Up to 10 years | 12 %
::end

Collateral is valued every Aurora Business Day at 06:00 CET.

# 5 Business days and calendar

## 5.1 Aurora Business Days

Every day from Monday to Friday is an Aurora Business Day, except the closing days below.

::table plain w=3,7 Table 5.1 - Closing days
Date | Closing day
1 January | New Year's Day
Good Friday | Variable date
Easter Monday | Variable date
1 May | Labour Day
25 December | Christmas Day
26 December | Boxing Day
::end

On 24 and 31 December the last settlement cycle is at 13:30 CET.
"""

# ---------------------------------------------------------------------------------------------
# PS-07 Fraud and Risk Management Rulebook (risk officers only)
# ---------------------------------------------------------------------------------------------

PS07 = """
CONFIDENTIAL - distribution restricted to the risk officers of participants. This rulebook sets
out how participants detect, report and contain payment fraud in the Aurora Payment Scheme, and
the thresholds that the scheme's fraud monitoring applies.

::table grid w=2,2,6 Table 0.1 - Document history
Version | Date | Change
2024.1 | 21 March 2024 | First edition.
2025.1 | 14 March 2025 | Device token freeze deadline of 2 hours; exemption thresholds recalibrated.
::end

# 1 Scope and confidentiality

## 1.1 Scope

This rulebook applies to all participants and to technical participants that hold Device Tokens.
It covers credit transfers, direct debits and card and device payments.

## 1.2 Confidential distribution

The thresholds and scoring rules in this rulebook are confidential. Participants may share them
only with staff that need them for fraud prevention. Leaking a threshold is a critical breach in
the sense of Rulebook PS-01, section 5.2.

# 2 Fraud reporting

## 2.1 Fraud taxonomy

::table grid w=1.5,3.5,5 Table 2.1 - Fraud types
Code | Fraud type | Description
F1 | Unauthorised payment | The payer did not authorise the payment (stolen device, account takeover).
F2 | Manipulated payer | The payer authorised the payment under deception (investment scam, fake invoice).
F3 | Device compromise | A payment device or its Device Token was cloned or tampered with.
F4 | First-party fraud | The payer disputes a payment he or she authorised knowingly.
::end

## 2.2 Periodic reporting

Participants report their fraud statistics for each calendar month to the SMC by the tenth Aurora
Business Day of the following month, broken down by instrument, fraud type and device category.
Rule FR-R2 requires participants to report fraud on connected household devices separately.

## 2.3 Reporting thresholds

Rule FR-R4: any single fraud case above EUR 50,000, and any series of related cases above
EUR 250,000 in total, must be reported to the APS Fraud Desk within 24 hours of detection. A
fraud pattern affecting more than 100 payers must be reported within 4 hours, whatever the
amounts. The Fraud Desk can be reached at fraud-desk@aurora-scheme.example.

# 3 Transaction risk analysis

## 3.1 Scoring model

Participants score every payment for fraud risk on a scale from 0 to 999. Payments scoring above
850 are blocked and the payer is contacted; payments scoring between 600 and 850 require strong
customer authentication even if an exemption would otherwise apply (rule FR-R6).

## 3.2 Exemption thresholds

::table grid w=3.4,3.3,3.3 Table 3.1 - Transaction risk analysis exemption thresholds
Participant fraud rate (remote card and device payments) | Maximum exempted amount | Review
Below 0.01 % | EUR 500 | Quarterly
Below 0.06 % | EUR 250 | ^
Below 0.13 % | EUR 100 | ^
At or above 0.13 % | No exemption | Monthly
::end

A participant whose fraud rate exceeds the threshold for two consecutive quarters loses the
exemption until its rate has been below the threshold for one full quarter.

# 4 Device risk

## 4.1 Compromised payment devices

When a device model is compromised (fraud type F3), the issuer freezes every Device Token of that
model within 2 hours of the ADCB notice (rule FR-R9) and informs the Fraud Desk. Connected
refrigerators and other household devices are frozen remotely; the owners are told within 24
hours how to re-enrol. Certification rules are in Rulebook PS-04, section 3.2.

## 4.2 Mule account indicators

Participants monitor accounts for mule indicators: more than 20 incoming credit transfers from
different originators within 24 hours, immediate outgoing transfers of more than 90 percent of
the incoming funds, or access from more than three devices in one day. Two indicators together
trigger a review within one Aurora Business Day.

# 5 Incident escalation

## 5.1 Severity levels

::table grid w=1.8,4.2,2,2 Table 5.1 - Incident severity levels
Severity | Trigger | Notify | Deadline
S1 | Scheme-wide device compromise | Fraud Desk and Scheme Board | 1 hour
^ | Settlement affected by fraud | ^ | ^
S2 | Fraud pattern affecting more than 100 payers | Fraud Desk | 4 hours
S3 | Single case above EUR 50,000 | Fraud Desk | 24 hours
::end

## 5.2 Contact points

Each participant appoints a fraud contact reachable 24 hours a day and registers the contact with
the Fraud Desk. Changes must be notified within 2 Aurora Business Days.
"""

# ---------------------------------------------------------------------------------------------
# PS-08 Fees and Charges Schedule (active 2025.1 and archived 2024.1 differ in a few figures)
# ---------------------------------------------------------------------------------------------

FEES_2025 = {
    "version_line": "This schedule applies from 1 June 2025 and replaces version 2024.1.",
    "history": "2025.1 | 14 March 2025 | Domestic card present fee lowered; refund fee lowered to EUR 0.25.",
    "direct_fee": "EUR 45,000",
    "indirect_fee": "EUR 12,500",
    "onboarding": "EUR 15,000",
    "dom_cp": "0.18 % (minimum EUR 0.04)",
    "dom_cnp": "0.30 % (minimum EUR 0.06)",
    "dom_dev": "0.25 % (minimum EUR 0.05)",
    "cb_eea": "0.40 %",
    "cb_non": "1.15 %",
    "refund": "Refund processing fee EUR 0.25 per refund; scheme fee of the original payment reimbursed",
    "return_fee": "EUR 0.35",
    "recall_fee": "EUR 2.50",
    "ct_fee": "EUR 0.0025",
}
FEES_2024 = {
    "version_line": "This schedule applies from 1 June 2024 and replaces version 2023.1.",
    "history": "2024.1 | 21 March 2024 | Connected device fee introduced.",
    "direct_fee": "EUR 42,000",
    "indirect_fee": "EUR 12,500",
    "onboarding": "EUR 15,000",
    "dom_cp": "0.21 % (minimum EUR 0.05)",
    "dom_cnp": "0.30 % (minimum EUR 0.06)",
    "dom_dev": "0.28 % (minimum EUR 0.05)",
    "cb_eea": "0.40 %",
    "cb_non": "1.25 %",
    "refund": "Refund processing fee EUR 0.40 per refund; scheme fee of the original payment reimbursed",
    "return_fee": "EUR 0.35",
    "recall_fee": "EUR 3.00",
    "ct_fee": "EUR 0.0030",
}

PS08_TEMPLATE = """
This schedule sets every fee that participants pay to the Aurora Payment Scheme or to each other
under the rulebooks. All amounts are in euro and exclude value added tax. {version_line}

::table grid w=2,2,6 Table 0.1 - Document history
Version | Date | Change
{history}
::end

# 1 Scope

## 1.1 Application

The fees apply to all participants. Fees due by indirect participants are invoiced to their
sponsor, which may pass them on.

## 1.2 Value added tax

Fees are stated exclusive of VAT. The APS invoices VAT where Belgian VAT law requires it.
Participants established outside Belgium apply the reverse-charge mechanism.

# 2 Participation fees

## 2.1 Annual participation fee

::table grid w=4,3,3 Table 2.1 - Annual participation fees
Participant category | Annual fee | Payable
Direct participant | {direct_fee} | In January
Indirect participant | {indirect_fee} | In January
Technical participant | EUR 8,000 | In January
::end

A participant that joins during the year pays the annual fee pro rata per started month.

## 2.2 Onboarding fee

A one-off onboarding fee of {onboarding} is due with the application and covers the technical
certification tests. It is not refunded if the application is rejected.

# 3 Transaction fees

## 3.1 Credit transfers and direct debits

The scheme fee is {ct_fee} per credit transfer and per direct debit collection, payable by the
sending participant. Instant payments, if introduced, will carry their own fee.

## 3.2 Card and device transactions

The scheme fee and interchange for card and device payments depend on where the payer's PSP and
the merchant are located. The refund conditions are the same for all segments.

::table grid w=2,3,2.6,2.4 Table 3.1 - Scheme fees for card and device transactions
Segment | Transaction type | Fee | Refund
Domestic | Card present | {dom_cp} | {refund}
^ | Card not present | {dom_cnp} | ^
^ | Connected device or wearable | {dom_dev} | ^
Cross-border | Within the EEA | {cb_eea} | ^
^ | Outside the EEA | {cb_non} | ^
::end

Connected devices and wearables are the payment devices of Rulebook PS-04, section 3.1.

## 3.3 R-transaction fees

::table grid w=3.5,2.5,4 Table 3.2 - Fees for R-transactions
R-transaction | Fee | Paid by
Return (pacs.004) | {return_fee} | Participant that caused the return
Recall (camt.056) | {recall_fee} | Originator PSP, to the beneficiary PSP
Refund of a direct debit | No fee | -
Chargeback | EUR 15.00 | Acquirer, to the issuer, if the chargeback is upheld
::end

# 4 Invoicing

## 4.1 Invoices and payment

The APS Secretariat invoices fees monthly, on the fifth Aurora Business Day of the month. Invoices
are payable within 30 calendar days. Late payments bear interest at 8 percent per year.

## 4.2 Disputed invoices

A participant may dispute an invoice within 60 calendar days of its date. The disputed amount
need not be paid until the SMC has decided on the dispute.
"""

# ---------------------------------------------------------------------------------------------
# PS-09 Disputes and Chargebacks Rulebook
# ---------------------------------------------------------------------------------------------

PS09 = """
This rulebook sets out how card and device payments are disputed between issuers, acquirers and
merchants: the dispute lifecycle, the chargeback reason codes, the refund deadlines and the
arbitration procedure.

::table grid w=2,2,6 Table 0.1 - Document history
Version | Date | Change
2024.1 | 21 March 2024 | First edition.
2025.1 | 14 March 2025 | Device-specific disputes; refund deadline for connected devices set at 60 days.
::end

# 1 Scope

## 1.1 Application

This rulebook applies to card and device payments under Rulebook PS-04. Credit transfers and
direct debits have their own R-transactions and refund rights, described in Rulebooks PS-02 and
PS-03.

## 1.2 Principles

Disputes are handled between the issuer and the acquirer. The merchant and the payer deal only
with their own PSP. Each step has a deadline; a party that misses a deadline loses the dispute.

# 2 Dispute lifecycle

## 2.1 Stages

::table grid w=2.6,2.4,5 Table 2.1 - Dispute stages
Stage | Initiated by | Deadline
Retrieval request | Issuer | Within 120 days of the transaction
First chargeback | Issuer | Within 120 days of the transaction
Representment | Acquirer | Within 30 days of the chargeback
Pre-arbitration | Issuer | Within 30 days of the representment
Arbitration | Issuer or acquirer | Within 10 days of the pre-arbitration answer
::end

## 2.2 Documentation

The party that starts a stage supplies the evidence: for a chargeback, the payer's statement; for
a representment, the receipt, the proof of delivery or the device log. For connected household
devices, the device log must show the order confirmation required by rule AT-R4.

# 3 Chargeback reason codes

## 3.1 Reason codes

::table grid w=1.5,4,4.5 Table 3.1 - Chargeback reason codes
Code | Reason | Typical evidence for representment
CB-F01 | Fraud, payment not authorised | Proof of SCA or device confirmation
CB-N02 | Goods or services not received | Proof of delivery
CB-Q03 | Goods not as described | Product description and correspondence
CB-D04 | Duplicate processing | Proof of two separate purchases
CB-A05 | Incorrect amount | Signed or confirmed amount
CB-R06 | Refund not processed | Proof that the refund was made
::end

## 3.2 Device-specific disputes

A payer who did not order the groceries that a connected refrigerator paid for disputes the
payment with reason CB-F01 if the order was not confirmed, or with CB-N02 if it was confirmed but
not delivered. Payments made with a garment or a handbag after the payer reported its loss are
always charged back under CB-F01.

# 4 Refunds and deadlines

## 4.1 Merchant refunds

A merchant that agrees to refund a payer must initiate the refund within 5 Aurora Business Days of
its agreement. The refund is made to the same payment device or, if the device is no longer
active, to the account behind the Device Token. Partial refunds are allowed.

## 4.2 Deadlines

### 4.2.1 Refund deadlines

A payer may ask its issuer to claim a refund for a card payment up to 120 days after the
transaction date. For payments made with a connected household device the deadline is 60 days,
and for wearables 90 days. The issuer credits the payer provisionally within 10 Aurora Business
Days of the claim (rule DS-R3). Direct debit refunds follow their own deadlines: see Rulebook
PS-03, section 5.1.

### 4.2.2 Representment deadlines

The acquirer may represent a chargeback within 30 days of receiving it. After that, the chargeback
is final. An acquirer that represents without new evidence pays a handling fee of EUR 50.

# 5 Arbitration

## 5.1 Arbitration Panel

Arbitration cases are decided by the APS Arbitration Panel of three members appointed by the SMC.
The filing fee is EUR 500, paid by the party that files; the losing party reimburses it. The Panel
decides within 45 days of a complete file.

## 5.2 Effect of decisions

Decisions of the Arbitration Panel are final and binding on the issuer and the acquirer. They do
not prevent the payer or the merchant from going to court.
"""

# ---------------------------------------------------------------------------------------------
# PS-10 Messaging and Technical Specification
# ---------------------------------------------------------------------------------------------

PS10 = """
This specification describes the ISO 20022 messages that participants exchange in the Aurora
Payment Scheme, the fields the scheme makes mandatory, and the validation rules that CSMs apply.

::table grid w=2,2,6 Table 0.1 - Document history
Version | Date | Change
2024.1 | 21 March 2024 | First edition (ISO 20022 version 2019 messages).
2025.1 | 14 March 2025 | pacs.002.001.10 replaces pacs.002.001.03; file limits raised.
::end

# 1 Scope

## 1.1 Application

This specification applies to all messages exchanged between participants and CSMs, and to the
customer-to-bank messages that participants must accept from their business customers.

## 1.2 Message version policy

The scheme uses the 2019 versions of the ISO 20022 messages. A new message version is adopted
only through the change cycle of Rulebook PS-01, section 4.3, with at least 12 months between the
publication and the mandatory use.

# 2 Credit transfer messages

## 2.1 pain.001.001.09 Customer Credit Transfer Initiation

Business customers submit credit transfers in pain.001.001.09 files. The scheme makes the
following elements mandatory.

::table grid w=3,4.5,2.5 Table 2.1 - Mandatory elements of pain.001.001.09
Element | Content | Rule
GrpHdr/MsgId | Unique message id, up to 35 characters | MS-R1
PmtInf/ReqdExctnDt | Requested execution date | MS-R2
PmtInf/Dbtr/Nm | Originator name, up to 70 characters | MS-R3
CdtTrfTxInf/Amt/InstdAmt | Amount, currency EUR, two decimals | MS-R4
CdtTrfTxInf/CdtrAcct/Id/IBAN | Beneficiary IBAN | MS-R5
::end

## 2.2 pacs.008.001.08 FI to FI Customer Credit Transfer

Participants send credit transfers to the CSM in pacs.008.001.08 messages. The settlement method
is CLRG and the settlement date equals the date of the settlement cycle. The UETR (a UUID) is
mandatory and must be kept unchanged in every related R-message.

## 2.3 pacs.002.001.10 Payment Status Report

The CSM and the beneficiary PSP report rejects in pacs.002.001.10 messages with the reason codes
of Rulebook PS-02, section 4.2. Positive status reports are not sent.

# 3 Direct debit messages

## 3.1 pain.008.001.08 Customer Direct Debit Initiation

Creditors submit collections in pain.008.001.08 files. The sequence type (FRST, RCUR, OOFF or
FNAL), the mandate reference and the creditor identifier are mandatory for each collection.

## 3.2 pacs.003.001.08 FI to FI Customer Direct Debit

The creditor PSP sends collections to the CSM in pacs.003.001.08 messages, no later than the
deadlines of Rulebook PS-03, section 3.2. Amendment details are carried in AmdmntInfDtls.

# 4 R-messages

## 4.1 Return messages

Returns and refunds are sent in pacs.004.001.09 messages. The original UETR and the original
amount are mandatory. The return reason is one of the codes allowed by the instrument rulebook.

## 4.2 Recall messages

::table plain w=3,4,1.5,1.5 Table 4.1 - Recall and investigation messages
Message | Purpose | Sender | Receiver
camt.056.001.08 | Recall request (FI to FI payment cancellation request) | Originator PSP | Beneficiary PSP
camt.029.001.09 | Negative answer to a recall (resolution of investigation) | Beneficiary PSP | Originator PSP
pacs.004.001.09 | Positive answer to a recall (return of funds) | Beneficiary PSP | Originator PSP
::end

## 4.3 Statements

CSMs report settled positions in camt.053.001.08 messages after every settlement cycle.

# 5 Character set and validation

## 5.1 Character set

Messages use the Latin character set: a-z, A-Z, 0-9 and / - ? : ( ) . , ' + and space. Accented
characters such as é or ü must be converted by the sender (é to e, ü to u) unless both parties
have agreed to use the extended character set (rule MS-R8).

## 5.2 File limits

A file may contain at most 100,000 transactions and may not exceed 50 MB. A file that breaks
either limit is rejected in full with reason code FF01.
"""

# ---------------------------------------------------------------------------------------------
# Key information documents (PRIIPs), Dutch and French, one product
# ---------------------------------------------------------------------------------------------

KID_NL = """
!! Doel

Dit document verschaft u essentiële informatie over dit beleggingsproduct. Het is geen
marketingmateriaal. Deze informatie is wettelijk voorgeschreven om u te helpen de aard, de
risico's, de kosten en de mogelijke winsten en verliezen van dit product te begrijpen en het met
andere producten te vergelijken.

!! Product

Aurora Kapitaalbescherming 2030, een gestructureerde obligatie uitgegeven door Aurora Bank NV.
ISIN: BE6493028177. Website: www.aurorabank.example. Bel +32 2 555 01 30 voor meer informatie.
De Autoriteit voor Financiële Diensten en Markten (FSMA) is verantwoordelijk voor het toezicht op
Aurora Bank NV in verband met dit essentiële-informatiedocument. Datum van opstelling: 2 mei 2025.

U staat op het punt een product te kopen dat niet eenvoudig is en wellicht moeilijk te begrijpen.

!! Wat is dit voor een product?

Soort: een obligatie naar Belgisch recht, uitgegeven in coupures van EUR 1.000. Looptijd: van
2 juni 2025 tot de vervaldag op 3 juni 2030. Doelstellingen: het product biedt op de vervaldag
100 % kapitaalbescherming van het belegde nominale bedrag, plus 60 % van de eventuele stijging
van de Aurora Europe Sustainable Equity Index tussen de beginwaarde en de eindwaarde, met een
maximale meerwaarde van 25 % (een jaarlijks actuarieel rendement van maximaal 4,56 % bruto).
Beoogde retailbelegger: een belegger met een neutraal beleggersprofiel die zijn kapitaal op de
vervaldag wil beschermen en het bedrag vijf jaar kan missen. Uitgifteprijs: 101,50 %.

!! Wat zijn de risico's en wat kan ik ervoor terugkrijgen?

::table grid hl=1:1 Risico-indicator
Lager risico | < | < | < | Hoger risico | < | <
1 | 2 | 3 | 4 | 5 | 6 | 7
::end

De risico-indicator veronderstelt dat u het product houdt tot 3 juni 2030. Wij hebben dit product
ingedeeld in klasse 2 uit 7, wat een lage risicoklasse is. Als Aurora Bank NV niet in staat is u
te betalen, kunt u uw hele inleg verliezen. U hebt recht op terugbetaling van ten minste 100 %
van uw kapitaal op de vervaldag. Elk bedrag daarboven en elk extra rendement hangen af van
toekomstige marktprestaties en zijn onzeker. Deze bescherming geldt niet als u het product vóór
de vervaldag verkoopt.

::table grid w=2.4,3.6,2,2 Prestatiescenario's (belegging van EUR 10.000)
Scenario | | Als u uitstapt na 1 jaar | Als u uitstapt na 5 jaar
Minimum | EUR 10.000 op de vervaldag; bij eerdere uitstap kunt u verlies lijden | < | <
Stressscenario | Wat u kunt terugkrijgen na aftrek van de kosten | EUR 8.720 | EUR 10.000
^ | Gemiddeld rendement per jaar | -12,8 % | 0,0 %
Ongunstig scenario | Wat u kunt terugkrijgen na aftrek van de kosten | EUR 9.310 | EUR 10.000
^ | Gemiddeld rendement per jaar | -6,9 % | 0,0 %
Gematigd scenario | Wat u kunt terugkrijgen na aftrek van de kosten | EUR 9.780 | EUR 11.180
^ | Gemiddeld rendement per jaar | -2,2 % | 2,3 %
Gunstig scenario | Wat u kunt terugkrijgen na aftrek van de kosten | EUR 10.240 | EUR 12.500
^ | Gemiddeld rendement per jaar | 2,4 % | 4,6 %
::end

!! Wat gebeurt er als Aurora Bank NV niet kan uitbetalen?

U loopt het risico dat de emittent in gebreke blijft. Dit product valt niet onder het Belgische
depositogarantiestelsel. Bij faillissement of afwikkeling van Aurora Bank NV kunt u uw volledige
belegging verliezen (bail-in).

!! Wat zijn de kosten?

::table grid w=4,3,3 Kosten in de loop van de tijd (belegging van EUR 10.000)
 | Als u uitstapt na 1 jaar | Als u uitstapt na 5 jaar
Totale kosten | EUR 380 | EUR 520
Jaarlijkse gevolgen van de kosten | 3,8 % | 1,0 % per jaar
::end

::table grid w=3,4,3 Samenstelling van de kosten
Kosten | Omschrijving | Bedrag
Instapkosten | 1,50 % van het bedrag dat u betaalt bij het instappen in deze belegging | EUR 150
Uitstapkosten | 1,00 % bij verkoop vóór de vervaldag, geen kosten op de vervaldag | EUR 100
Beheerkosten en andere administratieve of operationele kosten | 0,20 % van de waarde van uw belegging per jaar | EUR 20
Transactiekosten | 0,00 % | EUR 0
::end

!! Hoe lang moet ik het houden en kan ik er eerder geld uithalen?

Aanbevolen periode van bezit: tot de vervaldag op 3 juni 2030 (5 jaar). Aurora Bank NV zorgt
onder normale marktomstandigheden voor een secundaire markt, met een maximaal verschil van 1 %
tussen aankoop- en verkoopprijs. Bij verkoop vóór de vervaldag geldt de kapitaalbescherming niet
en betaalt u uitstapkosten van 1,00 %. Er is geen bedenktijd.

!! Hoe kan ik een klacht indienen?

Klachten over het product of over het gedrag van Aurora Bank NV kunt u richten aan de
Klachtendienst van Aurora Bank NV, Havenlaan 12, 1000 Brussel, of via
klachten@aurorabank.example. Als u geen bevredigend antwoord krijgt binnen 30 dagen, kunt u zich
wenden tot de Ombudsman in financiële geschillen (Ombudsfin), www.ombudsfin.be.

!! Andere nuttige informatie

Het prospectus, de definitieve voorwaarden en dit document zijn kosteloos verkrijgbaar in elk
kantoor van Aurora Bank NV en op www.aurorabank.example/kapitaalbescherming2030. De roerende
voorheffing van 30 % is van toepassing op de eventuele meerwaarde.
"""

KID_FR = """
!! Objectif

Le présent document contient des informations essentielles sur le produit d'investissement. Il
ne s'agit pas d'un document à caractère commercial. Ces informations vous sont fournies
conformément à une obligation légale, afin de vous aider à comprendre en quoi consiste ce
produit et quels risques, coûts, gains et pertes potentiels y sont associés, et de vous aider à
le comparer à d'autres produits.

!! Produit

Aurora Protection du Capital 2030 (Aurora Kapitaalbescherming 2030), une obligation structurée
émise par Aurora Banque SA. ISIN : BE6493028177. Site web : www.aurorabank.example. Appelez le
+32 2 555 01 31 pour de plus amples informations. L'Autorité des services et marchés financiers
(FSMA) est chargée du contrôle d'Aurora Banque SA en ce qui concerne ce document d'informations
clés. Date de production : 2 mai 2025.

Vous êtes sur le point d'acheter un produit qui n'est pas simple et qui peut être difficile à
comprendre.

!! En quoi consiste ce produit ?

Type : une obligation de droit belge, émise en coupures de EUR 1.000. Durée : du 2 juin 2025
jusqu'à l'échéance le 3 juin 2030. Objectifs : le produit offre à l'échéance une protection du
capital de 100 % du montant nominal investi, majorée de 60 % de la hausse éventuelle de l'indice
Aurora Europe Sustainable Equity Index entre la valeur initiale et la valeur finale, avec une
plus-value maximale de 25 % (soit un rendement actuariel annuel brut de 4,56 % au maximum).
Investisseurs de détail visés : un investisseur au profil neutre qui souhaite protéger son
capital à l'échéance et peut se passer du montant pendant cinq ans. Prix d'émission : 101,50 %.

!! Quels sont les risques et qu'est-ce que cela pourrait me rapporter ?

::table grid hl=1:1 Indicateur de risque
Risque le plus faible | < | < | < | Risque le plus élevé | < | <
1 | 2 | 3 | 4 | 5 | 6 | 7
::end

L'indicateur de risque part de l'hypothèse que vous conservez le produit jusqu'au 3 juin 2030.
Nous avons classé ce produit dans la classe de risque 2 sur 7, qui est une classe de risque
basse. Si Aurora Banque SA n'est pas en mesure de vous payer, vous pourriez perdre l'intégralité
de votre investissement. Vous avez droit à la restitution d'au moins 100 % de votre capital à
l'échéance. Tout montant supérieur et tout rendement supplémentaire dépendent des performances
futures du marché et restent aléatoires. Cette protection ne s'applique pas si vous vendez le
produit avant l'échéance.

::table grid w=2.4,3.6,2,2 Scénarios de performance (investissement de EUR 10.000)
Scénario | | Si vous sortez après 1 an | Si vous sortez après 5 ans
Minimum | EUR 10.000 à l'échéance ; en cas de sortie anticipée, vous pourriez subir une perte | < | <
Scénario de tensions | Ce que vous pourriez obtenir après déduction des coûts | EUR 8.720 | EUR 10.000
^ | Rendement annuel moyen | -12,8 % | 0,0 %
Scénario défavorable | Ce que vous pourriez obtenir après déduction des coûts | EUR 9.310 | EUR 10.000
^ | Rendement annuel moyen | -6,9 % | 0,0 %
Scénario intermédiaire | Ce que vous pourriez obtenir après déduction des coûts | EUR 9.780 | EUR 11.180
^ | Rendement annuel moyen | -2,2 % | 2,3 %
Scénario favorable | Ce que vous pourriez obtenir après déduction des coûts | EUR 10.240 | EUR 12.500
^ | Rendement annuel moyen | 2,4 % | 4,6 %
::end

!! Que se passe-t-il si Aurora Banque SA n'est pas en mesure d'effectuer les versements ?

Vous êtes exposé au risque de défaut de l'émetteur. Ce produit n'est pas couvert par le système
belge de garantie des dépôts. En cas de faillite ou de résolution d'Aurora Banque SA, vous
pourriez perdre la totalité de votre investissement (bail-in).

!! Que va me coûter cet investissement ?

::table grid w=4,3,3 Coûts au fil du temps (investissement de EUR 10.000)
 | Si vous sortez après 1 an | Si vous sortez après 5 ans
Coûts totaux | EUR 380 | EUR 520
Incidence des coûts annuels | 3,8 % | 1,0 % chaque année
::end

::table grid w=3,4,3 Composition des coûts
Coûts | Description | Montant
Coûts d'entrée | 1,50 % du montant que vous payez au moment de l'entrée dans l'investissement | EUR 150
Coûts de sortie | 1,00 % en cas de vente avant l'échéance, aucun coût à l'échéance | EUR 100
Frais de gestion et autres frais administratifs et d'exploitation | 0,20 % de la valeur de votre investissement par an | EUR 20
Coûts de transaction | 0,00 % | EUR 0
::end

!! Combien de temps dois-je le conserver et puis-je retirer de l'argent de façon anticipée ?

Période de détention recommandée : jusqu'à l'échéance le 3 juin 2030 (5 ans). Dans des conditions
normales de marché, Aurora Banque SA assure un marché secondaire, avec un écart maximal de 1 %
entre le prix d'achat et le prix de vente. En cas de vente avant l'échéance, la protection du
capital ne s'applique pas et vous payez des coûts de sortie de 1,00 %. Il n'y a pas de délai de
rétractation.

!! Comment puis-je formuler une réclamation ?

Les réclamations concernant le produit ou le comportement d'Aurora Banque SA peuvent être
adressées au Service Plaintes d'Aurora Banque SA, boulevard du Port 12, 1000 Bruxelles, ou à
plaintes@aurorabank.example. Si vous n'obtenez pas de réponse satisfaisante dans les 30 jours,
vous pouvez vous adresser à l'Ombudsman en conflits financiers (Ombudsfin), www.ombudsfin.be.

!! Autres informations pertinentes

Le prospectus, les conditions définitives et le présent document sont disponibles gratuitement
dans chaque agence d'Aurora Banque SA et sur www.aurorabank.example/protectioncapital2030. Le
précompte mobilier de 30 % s'applique à la plus-value éventuelle.
"""

# ---------------------------------------------------------------------------------------------
# PS-11 Instant Payments Rulebook (draft: must never be indexed)
# ---------------------------------------------------------------------------------------------

PS11 = """
DRAFT FOR CONSULTATION - NOT APPROVED. This draft rulebook proposes an Aurora Instant Credit
Transfer, executed around the clock in seconds. It is published for the public consultation of
2025 and has no binding force. See Rulebook PS-02, section 4.1 for the credit transfer rules in
force.

# 1 Scope

## 1.1 The Aurora Instant Credit Transfer

The proposed Aurora Instant Credit Transfer is a euro credit transfer available 24 hours a day,
every day of the year, with the funds made available to the beneficiary within seconds. It
would reuse the data set of the Aurora Credit Transfer (Rulebook PS-02, section 3.1).

## 1.2 Participation

Participation would be optional during a transition period of 18 months and mandatory afterwards
for every participant that offers the Aurora Credit Transfer to consumers.

# 2 Execution

## 2.1 Maximum execution time

The proposal sets a maximum execution time of 10 seconds from the time stamp of the payment to
the confirmation sent to the originator PSP. If no confirmation is received within 20 seconds,
the originator PSP treats the payment as rejected (proposed rule IP-R2).

## 2.2 Confirmation messages

Positive and negative confirmations would be sent in pacs.002.001.10 messages. The proposal
introduces the reason code AB05 (timeout at the beneficiary PSP).

# 3 Limits and fees

## 3.1 Maximum amount

The proposed maximum amount per Aurora Instant Credit Transfer is EUR 100,000. Participants could
agree bilaterally to higher amounts for business customers.

::table grid w=4,3,3 Table 3.1 - Proposed instant payment parameters
Parameter | Proposed value | Consultation question
Maximum amount | EUR 100,000 | Q4
Maximum execution time | 10 seconds | Q5
Timeout | 20 seconds | Q6
Scheme fee | EUR 0.0040 per payment | Q9
::end

## 3.2 Fees

The proposed scheme fee is EUR 0.0040 per instant payment. Participants may not charge consumers
more for an instant payment than for a regular credit transfer.

# 4 Availability

## 4.1 Service availability

The service would be available 24 hours a day, 7 days a week, 365 days a year, with planned
maintenance windows announced at least 30 days in advance and never longer than 30 minutes.
"""

# ---------------------------------------------------------------------------------------------
# PS-12 French product sheet whose text layer is Windows-1252 mojibake
# ---------------------------------------------------------------------------------------------

PS12 = """
Cette fiche décrit le Compte d'épargne Aurora Plus, un compte d'épargne réglementé proposé par les
participants de l'Aurora Payment Scheme. Elle indique la rémunération, les conditions et les
frais applicables au 1er juin 2025.

# 1 Caractéristiques du compte

## 1.1 Description

Le Compte d'épargne Aurora Plus est un compte d'épargne réglementé en euros, réservé aux
personnes physiques résidant en Belgique. Le dépôt minimum est de EUR 1 et le solde maximum de
EUR 500.000. Les retraits et virements vers le compte courant sont gratuits et illimités.

## 1.2 Garantie des dépôts

Les dépôts sont protégés par le Fonds de garantie belge jusqu'à EUR 100.000 par déposant et par
banque.

# 2 Rémunération

## 2.1 Taux de rémunération

La rémunération du compte se compose d'un taux de base et d'une prime de fidélité. Le taux de base
est de 1,25 % par an. La prime de fidélité de 0,75 % par an est acquise sur chaque montant qui
reste sur le compte pendant 12 mois consécutifs.

::table grid w=4,3,3 Tableau 2.1 - Rémunération au 1er juin 2025
Élément de rémunération | Taux annuel | Versement
Taux de base | 1,25 % | Le 1er janvier
Prime de fidélité | 0,75 % | Le premier jour du trimestre suivant
Rémunération totale maximale | 2,00 % | -
::end

## 2.2 Fiscalité

Les intérêts sont exonérés de précompte mobilier jusqu'à EUR 1.020 par an et par personne
(revenus de 2025). Au-delà, le précompte mobilier de 15 % est retenu par la banque.
"""

# ---------------------------------------------------------------------------------------------
# Not in the catalog (unknown provenance), and the three unreadable files
# ---------------------------------------------------------------------------------------------

MEMO = """
Informal notes of the acceptance working group meeting of 8 April 2025. These notes are not an
APS document, have not been vetted, and do not change any rule.

# 1 Discussion

## 1.1 Connected devices

The working group discussed raising the limit for connected refrigerators to EUR 300 per
transaction and allowing offline payments by connected devices. No decision was taken. Several
members pointed out that the rulebooks in force keep a lower limit.

## 1.2 Next meeting

The next meeting is planned for 10 June 2025 at the Secretariat in Brussels.
"""

PS14 = """
This rulebook describes the business continuity requirements that participants must meet so that
Aurora payments continue during an operational disruption.

# 1 Continuity requirements

## 1.1 Recovery time objective

Direct participants must be able to resume sending and receiving Aurora payments within 2 hours
of a disruption of their primary site (recovery time objective), with no loss of accepted
payments (recovery point objective of zero).

## 1.2 Annual test

Each direct participant tests its secondary site at least once a year with live traffic and
reports the result to the SMC within 20 Aurora Business Days.
"""

PS15 = """
These guidelines describe how participants screen Aurora payments against sanctions lists.

# 1 Screening

## 1.1 Lists screened

Participants screen the originator and beneficiary names of every cross-border payment against the
EU consolidated sanctions list and the national lists of the Aurora Area countries, updated daily
before 06:00 CET.

## 1.2 Hits

A payment with a confirmed hit is rejected with reason code RR04 and reported to the national
authority the same day.
"""

SCANNED_LINES = [
    "AURORA PAYMENT SCHEME - ADHERENCE LETTER",
    "",
    "To: APS Secretariat, Brussels",
    "From: Banque Exemple SA, Luxembourg",
    "Date: 12 May 2025",
    "",
    "We hereby adhere to the Aurora Payment Scheme Rulebook (PS-01)",
    "version 2025.1 and to the Aurora Credit Transfer Rulebook (PS-02)",
    "as a direct participant, with effect from 1 July 2025.",
    "",
    "We confirm that we have passed the technical certification",
    "tests of the Messaging and Technical Specification (PS-10).",
    "",
    "Signed: M. Weber, Chief Operating Officer",
]


# ---------------------------------------------------------------------------------------------
# The documents and what the catalog says about them
# ---------------------------------------------------------------------------------------------


def _doc(file: str, id: str, title: str, body: str, **kw) -> dict:  # noqa: A002 - catalog field name
    base = {
        "file": file, "id": id, "title": title, "body": body, "type": "rulebook", "language": "en",
        "version": "2025.1", "status": "vetted_active", "vetted_on": "2025-04-02",
        "changed_by": "e.janssens", "effective": "effective 1 June 2025",
    }
    base.update(kw)
    return base


def documents() -> list[dict]:
    return [
        _doc("PS-01_scheme_rulebook.pdf", "PS-01", "Aurora Payment Scheme Rulebook", PS01, note="umbrella rulebook; cross-references into the restricted PS-07",
             subtitle="Governance, participation and compliance", changed_by="m.dubois"),
        _doc("PS-02_credit_transfer_rulebook.pdf", "PS-02", "Aurora Credit Transfer Rulebook", PS02, note="credit transfers, reason codes, recall table with spans",
             subtitle="Euro credit transfers between participants"),
        _doc("PS-03_direct_debit_rulebook.pdf", "PS-03", "Aurora Direct Debit Rulebook", PS03, note="direct debits, MD06/MD01 refunds (spanned table)",
             subtitle="Core and Business variants", changed_by="s.devries"),
        _doc("PS-04_card_and_device_acceptance_rulebook.pdf", "PS-04",
             "Card and Device Acceptance Rulebook", PS04, note="the payment devices page (fridge, cufflinks, handbag, garment); rules AT-R1..AT-R9",
             subtitle="Payment devices, certification and terminals", changed_by="l.peeters"),
        _doc("PS-05-NL_handelaarsreglement.pdf", "PS-05-NL", "Handelaarsreglement Aurora", PS05_NL, note="PS-05 in Dutch; Annex A (Netherlands) exists only in Dutch",
             language="nl", subtitle="Regels voor handelaars (Nederlandstalige uitgave)",
             series="PS-05", changed_by="l.peeters", effective="van kracht op 1 juni 2025"),
        _doc("PS-05-FR_reglement_commercants.pdf", "PS-05-FR", "Règlement Commerçants Aurora", PS05_FR, note="PS-05 in French; Annex B (Luxembourg) exists only in French",
             language="fr", subtitle="Règles applicables aux commerçants (édition française)",
             series="PS-05", changed_by="a.martin", effective="en vigueur le 1er juin 2025"),
        _doc("PS-06_settlement_and_clearing_rulebook.pdf", "PS-06", "Settlement and Clearing Rulebook",
             PS06, subtitle="Clearing cycles, settlement, liquidity and calendar",
             roles=["operations", "treasury", "risk-officer"], changed_by="j.willems",
             note="encrypted with an owner password only (no user password): must open and index normally"),
        _doc("PS-07_fraud_and_risk_management_rulebook.pdf", "PS-07",
             "Fraud and Risk Management Rulebook", PS07, note="visible only to the role risk-officer", subtitle="Confidential - risk officers only",
             roles=["risk-officer"], changed_by="k.maes"),
        _doc("PS-08_fees_and_charges_schedule.pdf", "PS-08", "Fees and Charges Schedule",
             PS08_TEMPLATE.format(**FEES_2025), note="the fee table with spans (3.2); successor of PS-08-2024", subtitle="Participation and transaction fees",
             changed_by="m.dubois"),
        _doc("PS-08_fees_and_charges_schedule_2024.pdf", "PS-08-2024", "Fees and Charges Schedule",
             PS08_TEMPLATE.format(**FEES_2024), subtitle="Participation and transaction fees",
             version="2024.1", status="vetted_archived", vetted_on="2024-04-10",
             withdrawn_on="2025-05-31", series="PS-08", changed_by="m.dubois",
             effective="effective 1 June 2024",
             note="archived predecessor of PS-08: same text except a few fee figures"),
        _doc("PS-09_disputes_and_chargebacks_rulebook.pdf", "PS-09", "Disputes and Chargebacks Rulebook",
             PS09, note="chargebacks; the only sub-sections (4.2.1, 4.2.2)", subtitle="Dispute lifecycle, chargebacks, refunds and arbitration",
             changed_by="s.devries"),
        _doc("PS-10_messaging_and_technical_specification.pdf", "PS-10",
             "Messaging and Technical Specification", PS10, note="ISO 20022 message ids; a table without ruling lines", type="specification",
             subtitle="ISO 20022 messages and validation rules", changed_by="j.willems"),
        _doc("PS-11_instant_payments_rulebook_DRAFT.pdf", "PS-11", "Aurora Instant Payments Rulebook",
             PS11, version="0.9-draft", status="draft", vetted_on=None,
             subtitle="Draft for consultation", changed_by="e.janssens", effective="not in force",
             note="draft: quarantined, never indexed; its figures must not appear in answers"),
        _doc("PS-12_fiche_produit_compte_epargne.pdf", "PS-12", "Fiche produit - Compte d'épargne Aurora Plus",
             PS12, type="product_sheet", language="fr", mojibake=True,
             subtitle="Conditions au 1er juin 2025", changed_by="a.martin",
             effective="en vigueur le 1er juin 2025",
             note="the whole text layer is Windows-1252 mojibake (rÃ©munÃ©ration); must be repaired"),
        _doc("KID-01-NL_aurora_kapitaalbescherming_2030.pdf", "KID-01-NL",
             "Essentiële-informatiedocument - Aurora Kapitaalbescherming 2030", KID_NL, type="kid",
             language="nl", isin=ISIN, series="KID-01", vetted_on="2025-05-02", changed_by="p.claes",
             subtitle="ISIN BE6493028177", effective="2 mei 2025", brand="Aurora Bank NV",
             note="PRIIPs KID in Dutch, SRI 2 of 7; same product as KID-01-FR"),
        _doc("KID-01-FR_aurora_protection_du_capital_2030.pdf", "KID-01-FR",
             "Document d'informations clés - Aurora Protection du Capital 2030", KID_FR, type="kid",
             language="fr", isin=ISIN, series="KID-01", vetted_on="2025-05-02", changed_by="p.claes",
             subtitle="ISIN BE6493028177", effective="2 mai 2025", brand="Aurora Banque SA",
             note="PRIIPs KID in French, SRI 2 of 7; same product as KID-01-NL"),
        _doc("PS-02_credit_transfer_rulebook_dms_export.pdf", "PS-02-DUP",
             "Aurora Credit Transfer Rulebook", PS02, duplicate_of="PS-02", series="PS-02",
             subtitle="Euro credit transfers between participants", changed_by="dms-sync",
             pdf_title="Aurora Credit Transfer Rulebook (DMS export)", printed_id="PS-02",
             note="same text as PS-02, different bytes (PDF metadata title): a duplicate, not indexed"),
        _doc("aurora_working_group_notes_2025-04.pdf", "NOTES-2025-04",
             "Acceptance working group - meeting notes", MEMO, in_catalog=False,
             subtitle="Informal notes", effective="8 April 2025",
             note="not in the catalog: unknown provenance, excluded"),
        _doc("PS-14_business_continuity_rulebook_CORRUPT.pdf", "PS-14", "Business Continuity Rulebook",
             PS14, changed_by="j.willems", note="corrupt bytes: cannot be opened"),
        _doc("PS-15_sanctions_screening_guidelines_ENCRYPTED.pdf", "PS-15",
             "Sanctions Screening Guidelines", PS15, type="briefing", changed_by="k.maes",
             note="AES-128 encrypted with a user password: cannot be read without it"),
        _doc("PS-16_adherence_letter_SCANNED.pdf", "PS-16", "Adherence letter Banque Exemple SA", "",
             type="briefing", changed_by="dms-scan", vetted_on="2025-05-14",
             note="a scanned page: an image without any text layer"),
    ]


# ---------------------------------------------------------------------------------------------
# Facts for the golden question sets: (document id, section, exact phrase, what it answers, scope)
# `section` is the number of the innermost heading ("" for the front matter) or, in KIDs, the
# heading itself. The generator checks each phrase is in that section and finds its page.
# ---------------------------------------------------------------------------------------------

FACTS: list[tuple[str, str, str, str, str]] = [
    # PS-01
    ("PS-01", "1.2", "Belgium, the Netherlands, Luxembourg, France and Germany (the Aurora Area)",
     "Which countries form the Aurora Area", ""),
    ("PS-01", "3.2", "within 45 Aurora Business Days", "Deadline for the Board's admission decision", ""),
    ("PS-01", "4.1", "a quorum of six members is required", "Scheme Board quorum (9 members)", ""),
    ("PS-01", "5.2", "Fine of EUR 25,000 per breach",
     "Table 5.1: 'Serious' spans two rows (repeated late settlement; failure to apply a refund right)", ""),
    ("PS-01", "5.2", "Fines are capped at EUR 250,000 per participant per calendar year", "Annual fine cap", ""),
    ("PS-01", "6.1", "capped at EUR 5,000,000", "Liability cap per event", ""),
    ("PS-01", "7.1", "six months' written notice", "Notice period for voluntary exit", ""),
    # PS-02
    ("PS-02", "1.1", "no later than the Aurora Business Day following receipt (D+1)",
     "Maximum execution time of a credit transfer", ""),
    ("PS-02", "3.2", "Rule CT-R3 forbids truncating the unstructured field",
     "Rule CT-R3; unstructured remittance information up to 140 characters", ""),
    ("PS-02", "4.1", "before the cut-off of the last settlement cycle, 15:30 CET", "Credit transfer cut-off", ""),
    ("PS-02", "4.2", "Account identifier incorrect (invalid IBAN)", "Reason code AC01 (Table 4.1)", ""),
    ("PS-02", "4.3", "pacs.004.001.09 message within 3 Aurora Business Days", "Return deadline", ""),
    ("PS-02", "5.2", "15 Aurora Business Days after receipt of the recall",
     "Table 5.1: response deadline spans DUPL, TECH and FRAD; FRAD may be requested 13 months after "
     "settlement; 'camt.029.001.09' spans all six rows", ""),
    ("PS-02", "6.2", "must answer a verification request within 5 seconds", "Verification of payee (rule CT-R7)", ""),
    # PS-03
    ("PS-03", "2.3", "no collection has been presented under it for 36 months", "Mandate expiry", ""),
    ("PS-03", "3.1", "at least 14 calendar days before the due date", "Pre-notification period", ""),
    ("PS-03", "5.1", "8 weeks after the debit date",
     "Table 5.1: MD06 refund window; the compensation cell spans the MD06 and MD01 rows", ""),
    ("PS-03", "5.1", "must refund an MD06 claim within 10 Aurora Business Days", "MD06 refund processing time", ""),
    ("PS-03", "4.2", "Debtor deceased", "Return reason code MD07 (Table 4.1)", ""),
    # PS-04
    ("PS-04", "3.1", "So yes: a customer can pay with a connected refrigerator (a fridge), with cufflinks, "
     "with a handbag or with a garment", "THE DEMO ANSWER: 'Can I pay with my fridge?'", ""),
    ("PS-04", "3.1", "Smart fridges that reorder groceries",
     "Table 3.1 accepted payment devices: connected refrigerators, rule AT-R4, limit EUR 150", ""),
    ("PS-04", "3.2", "a number of the form ADC-2025-0147, valid for three years",
     "Rule AT-R3 device certification by the ADCB", ""),
    ("PS-04", "3.2", "Certification costs EUR 12,000 per device model", "Certification cost (renewal EUR 3,000)", ""),
    ("PS-04", "3.3", "cumulative limit of EUR 600 per calendar month per device",
     "Rule AT-R4: fridge EUR 150 per transaction, other household devices EUR 75", ""),
    ("PS-04", "3.3", "Every order above EUR 50 must be confirmed by the owner",
     "Fridge orders above EUR 50 need confirmation", ""),
    ("PS-04", "3.4", "After five consecutive payments or a cumulative EUR 150",
     "Rule AT-R6: wearables (cufflinks, handbags) EUR 50 per transaction, then SCA", ""),
    ("PS-04", "3.4", "40 washing cycles at 40 degrees Celsius", "Rule AT-R7: garments with payment tags", ""),
    ("PS-04", "4.2", "floor limit of EUR 25", "Offline payments: cards only, never devices", ""),
    ("PS-04", "6.1", "within 24 hours of noticing it", "Loss reporting; payer bears losses up to EUR 50", ""),
    # PS-05 (Dutch and French editions)
    ("PS-05-NL", "3.1", "een verbonden koelkast die boodschappen bijbestelt",
     "Dutch: a connected fridge is an accepted payment method (EUR 150 per transaction)", ""),
    ("PS-05-NL", "4.2", "EUR 0,25 per terugbetaling",
     "Tabel 4.1: 'Binnenlands' spans 3 rows, 'Grensoverschrijdend' 2; the refund cell spans all 5", ""),
    ("PS-05-NL", "A.2", "De limiet voor Aurora QR bedraagt EUR 500 per transactie",
     "Aurora QR in the Netherlands", "only in Dutch"),
    ("PS-05-NL", "A.1", "vermelden hun KvK-nummer (Kamer van Koophandel)",
     "Dutch merchants register with their KvK number", "only in Dutch"),
    ("PS-05-FR", "3.1", "un réfrigérateur connecté qui commande des courses",
     "French: a connected fridge is an accepted payment method (EUR 150 par transaction)", ""),
    ("PS-05-FR", "B.2", "le versement a lieu au plus tard à 08h00",
     "Payout time for merchants in Luxembourg (elsewhere 06:00)", "only in French"),
    ("PS-05-FR", "B.2", "Commission de Surveillance du Secteur Financier (CSSF)",
     "Luxembourg escalation body, within one year", "only in French"),
    ("PS-05-FR", "2.2", "moyennant un préavis de trois mois", "Merchant's notice period (acquirer: six months)", ""),
    # PS-06 (owner-password encrypted; roles operations, treasury, risk-officer)
    ("PS-06", "3.2", "at 07:30, 10:30, 13:30, 15:30 and 17:00 CET", "The five settlement cycles (17:00 R-transactions only)", ""),
    ("PS-06", "4.1", "the higher of EUR 2,000,000 and 120 percent", "Prefunding requirement", ""),
    ("PS-06", "4.2", "More than 5 years", "Table 4.1: 'Government bonds' spans 2 rows; haircut 5 % beyond 5 years", ""),
    ("PS-06", "5.1", "Boxing Day", "Closing days (Table 5.1, a table without ruling lines)", ""),
    # PS-07 (risk-officer only)
    ("PS-07", "2.3", "any single fraud case above EUR 50,000", "Rule FR-R4: report to the Fraud Desk within 24 hours",
     "risk-officer only"),
    ("PS-07", "3.1", "Payments scoring above 850 are blocked", "Fraud score threshold (rule FR-R6)", "risk-officer only"),
    ("PS-07", "4.1", "within 2 hours of the ADCB notice (rule FR-R9)", "Freeze of compromised Device Tokens",
     "risk-officer only"),
    # PS-08 active and archived
    ("PS-08", "3.2", "0.18 % (minimum EUR 0.04)",
     "Table 3.1: Domestic card present fee; 'Domestic' spans 3 rows, 'Cross-border' 2, 'Refund' all 5", ""),
    ("PS-08", "3.2", "Refund processing fee EUR 0.25 per refund", "Refund fee (spanned cell)", ""),
    ("PS-08", "2.1", "EUR 45,000", "Annual fee of a direct participant (Table 2.1)", ""),
    ("PS-08", "3.3", "EUR 2.50", "Recall fee (Table 3.2)", ""),
    ("PS-08-2024", "3.2", "0.21 % (minimum EUR 0.05)", "ARCHIVED figure: domestic card present fee in 2024.1",
     "archived only"),
    ("PS-08-2024", "3.2", "Refund processing fee EUR 0.40 per refund", "ARCHIVED refund fee", "archived only"),
    # PS-09
    ("PS-09", "4.2.1", "up to 120 days after the transaction date",
     "Refund deadline for cards; 60 days for connected household devices, 90 for wearables (rule DS-R3)", ""),
    ("PS-09", "3.1", "Goods or services not received", "Chargeback reason code CB-N02", ""),
    ("PS-09", "5.1", "The filing fee is EUR 500", "Arbitration filing fee", ""),
    # PS-10
    ("PS-10", "2.1", "Unique message id, up to 35 characters", "pain.001.001.09 GrpHdr/MsgId (rule MS-R1)", ""),
    ("PS-10", "5.2", "at most 100,000 transactions and may not exceed 50 MB", "File limits; breach rejected with FF01", ""),
    ("PS-10", "4.2", "Recall request (FI to FI payment cancellation request)",
     "camt.056.001.08 (Table 4.1, no ruling lines)", ""),
    # KIDs
    ("KID-01-NL", "Wat zijn de risico's en wat kan ik ervoor terugkrijgen?", "ingedeeld in klasse 2 uit 7",
     "Risk indicator SRI 2 of 7", ""),
    ("KID-01-NL", "Wat zijn de kosten?", "Totale kosten", "Total costs EUR 380 after 1 year, EUR 520 after 5", ""),
    ("KID-01-NL", "Hoe lang moet ik het houden en kan ik er eerder geld uithalen?",
     "tot de vervaldag op 3 juni 2030 (5 jaar)", "Recommended holding period", ""),
    ("KID-01-NL", "Hoe kan ik een klacht indienen?", "klachten@aurorabank.example", "Complaints address (Dutch)", ""),
    ("KID-01-NL", "Product", "ISIN: BE6493028177", "The ISIN", ""),
    ("KID-01-FR", "Quels sont les risques et qu'est-ce que cela pourrait me rapporter ?",
     "dans la classe de risque 2 sur 7", "Risk indicator SRI 2 of 7", ""),
    ("KID-01-FR", "Que va me coûter cet investissement ?", "Coûts d'entrée", "Entry costs 1,50 % (EUR 150)", ""),
    ("KID-01-FR", "Comment puis-je formuler une réclamation ?", "plaintes@aurorabank.example",
     "Complaints address (French)", ""),
    # PS-12 (mojibake in the PDF; the phrase is given repaired)
    ("PS-12", "2.1", "La prime de fidélité de 0,75 % par an", "Loyalty bonus; base rate 1,25 %", "mojibake in the PDF"),
    # Never to be answered from
    ("PS-11", "3.1", "The proposed maximum amount per Aurora Instant Credit Transfer is EUR 100,000",
     "DRAFT: must not be indexed or cited", "draft only"),
    ("NOTES-2025-04", "1.1", "raising the limit for connected refrigerators to EUR 300",
     "NOT IN CATALOG: must not be indexed or cited", "uncatalogued only"),
]
