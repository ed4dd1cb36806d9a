Title: Eight players: out of cards after a claim, and the turn passes on
Rules: literature
Deck: standard
Teams: Anna Ben Cara Gus vs Dev Eli Fay Hal
Hand Anna: 2S 3S 4S 5S 9H 10H
Hand Dev: JH 9S 2H 2D 9D 2C
Hand Ben: QH 10S 3H 3D 10D 9C
Hand Eli: KH JS 4H 4D JD 10C
Hand Cara: AH QS 5H 5D QD JC
Hand Fay: 6S 7H 7D 3C 6C KC
Hand Gus: KS 6H 6D KD 5C QC
Hand Hal: 7S AS AD 4C 7C AC

# Eight players: six cards each.
1. Dev asks Anna for 9H: yes
2. Dev asks Anna for 10H: yes  # Anna is down to her four low spades
3. Dev asks Ben for 4C: no
4. Ben asks Eli for KS: no
5. Eli asks Anna for QH: no  # the turn comes to Anna
6. Anna asks Fay for 6S: yes
7. Anna asks Hal for 7S: yes
8. Anna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: correct  # her last six cards: Anna is out of cards on her own turn
9. Anna passes to Cara  # a player who runs out by claiming hands the turn to a teammate who still has cards
10. Cara asks Dev for 9H: yes  # the cards Dev took from Anna are public
11. Cara asks Dev for 10H: yes
12. Cara asks Hal for JH: no
