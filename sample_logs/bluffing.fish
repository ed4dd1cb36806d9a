Title: Bluffing allowed: an ask no longer proves the asker lacks the card
Rules: literature
Deck: standard
Bluffing: yes
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2S 3S 9S 2H 9H 2D 9D 2C
Hand Dev: 7S 10S 3H 10H 3D 10D 3C 9C
Hand Ben: 4S JS 4H JH 4D JD 4C 10C
Hand Eli: QS 5H QH 5D QD 5C JC KC
Hand Cara: KS 6H KH 6D KD 6C QC AC
Hand Fay: 5S 6S AS 7H AH 7D AD 7C

1. Anna asks Dev for 3S: no  # Anna holds 3S herself: a bluff, allowed here; she still needs a low spade to ask
2. Dev asks Ben for 3S: no  # Dev takes the ask at face value and looks for 3S elsewhere
3. Ben asks Fay for 5S: yes  # a yes still proves the asker did not hold the card
4. Ben asks Fay for 6S: yes
5. Ben asks Dev for 7S: yes
6. Ben asks Eli for 3S: no  # the bluff misleads Ben too
7. Eli asks Anna for 10C: no
# Anna holds 2S 3S. Ben's first low spade was not 5S, 6S or 7S (he got those), so it is 4S.
8. Anna claims low-spades: Anna 2S 3S, Ben 4S 5S 6S 7S: correct
