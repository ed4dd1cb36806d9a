Title: A whole simulated game (six players, seed 16)
Rules: literature
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 10S 4H JH JD KD 4C 9C QC
Hand Dev: QS AS 2H 5H 2D 3D 4D 7D
Hand Ben: 3S 4S 5S 6S 6H 9H QH AD
Hand Eli: 9S 10H KH 5D 10D 5C 10C KC
Hand Cara: 2S JS KS 3H 7H 9D QD JC
Hand Fay: 7S AH 6D 2C 3C 6C 7C AC

# Simulated by `halfsuit simulate --seed 16`; the comments mark what `halfsuit mistakes` finds.
1. Anna asks Dev for 7H: no
2. Dev asks Cara for 6D: no
3. Cara asks Fay for 2H: no
4. Fay asks Ben for 2S: no
5. Ben asks Fay for 7S: yes
6. Ben asks Fay for 10H: no
7. Fay asks Ben for 9H: yes
8. Fay asks Anna for KH: no
9. Anna asks Fay for 9H: yes
10. Anna asks Fay for QS: no
11. Fay asks Anna for 9H: yes
12. Fay asks Ben for KH: no
13. Ben asks Fay for 9H: yes
14. Ben asks Eli for 2S: no
15. Eli asks Ben for 9H: yes
16. Eli asks Ben for 7D: no
17. Ben asks Eli for 9H: yes
18. Ben asks Dev for 2H: yes
19. Ben asks Dev for 2S: no
20. Dev asks Ben for 2H: yes
21. Dev asks Anna for 9S: no
22. Anna asks Dev for 2H: yes
23. Anna asks Dev for JS: no
24. Dev asks Anna for 2H: yes
25. Dev asks Ben for 10S: no
26. Ben asks Dev for 2H: yes
27. Ben asks Dev for JD: no
28. Dev asks Ben for 2H: yes
29. Dev asks Cara for KS: yes
30. Dev asks Anna for 10S: yes
31. Dev asks Anna for 3H: no
32. Anna asks Dev for 2H: yes
33. Anna asks Dev for 10D: no
34. Dev asks Anna for 2H: yes
35. Dev asks Cara for 7H: yes
36. Dev asks Ben for JS: no
37. Ben asks Dev for 2H: yes
38. Ben asks Dev for 7H: yes
39. Ben asks Eli for 3H: no
40. Eli asks Ben for 9H: yes
41. Eli asks Ben for AH: no
42. Ben asks Eli for 9H: yes
43. Ben asks Fay for 3H: no
44. Fay asks Ben for 9H: yes
45. Fay asks Cara for 3D: no
46. Cara asks Dev for 10S: yes
47. Cara asks Dev for KS: yes
48. Cara asks Eli for 3S: no
49. Eli asks Cara for 10S: yes
50. Eli asks Cara for KS: yes
51. Eli asks Anna for JD: yes
52. Eli asks Ben for 6D: no
53. Ben claims low-spades: Cara 2S, Ben 3S 4S 5S 6S 7S: correct
54. Ben asks Fay for 9H: yes
55. Ben asks Eli for JD: yes
56. Ben asks Eli for QD: no
57. Eli asks Ben for 9H: yes
58. Eli asks Ben for JD: yes
59. Eli asks Cara for AC: no
60. Cara asks Eli for 10S: yes
61. Cara asks Eli for KS: yes
62. Cara asks Eli for JD: yes
63. Cara asks Dev for 10C: no
64. Dev claims low-diamonds: Dev 2D 3D 4D 7D, Eli 5D, Fay 6D: correct
65. Dev asks Cara for 3H: yes
66. Dev asks Ben for 7H: yes
67. Dev asks Cara for 10S: yes
68. Dev asks Ben for 2H: yes
69. Dev asks Cara for KS: yes
70. Dev asks Cara for 4H: no
71. Cara asks Dev for KS: yes
72. Cara asks Dev for 10S: yes
73. Cara asks Eli for 10D: yes
74. Cara asks Dev for KD: no
75. Dev asks Cara for KS: yes
76. Dev asks Cara for 10S: yes
77. Dev asks Anna for 6H: no
78. Anna asks Eli for 9H: yes
79. Anna asks Dev for 2H: yes
80. Anna asks Dev for 3H: yes
81. Anna asks Dev for 7H: yes
82. Anna asks Fay for AH: yes
83. Anna asks Eli for 10C: yes
84. Anna asks Eli for 5H: no
85. Eli asks Anna for 10C: yes
86. Eli asks Anna for 9H: yes
87. Eli asks Anna for AH: yes
88. Eli asks Cara for JS: yes
89. Eli asks Cara for QH: no
90. Cara asks Eli for 10C: yes
91. Cara asks Eli for KC: yes
92. Cara asks Fay for AC: yes
93. Cara asks Eli for KD: no
94. Eli asks Cara for 2C: no
95. Cara asks Dev for AD: no  # Cara asks Dev and fails, though Dev can take low hearts given the turn
96. Dev asks Anna for 7H: yes  # Dev could claim high spades here (Eli holds 9S and JS); the team later forfeits it
97. Dev asks Anna for 2H: yes
98. Dev asks Anna for 3H: yes
99. Dev asks Anna for 4H: yes
100. Dev asks Cara for 9S: no
101. Cara asks Fay for KD: no
102. Fay asks Cara for 4C: no
103. Cara asks Dev for 9C: no
104. Dev asks Ben for 6H: yes
105. Dev claims low-hearts: Dev 2H 3H 4H 5H 6H 7H: correct  # Dev takes low hearts: the lockout Cara broke
106. Dev asks Ben for 9S: no
107. Ben asks Eli for 9H: yes
108. Ben asks Eli for AH: yes
109. Ben asks Eli for KH: yes
110. Ben asks Eli for 10H: yes
111. Ben asks Dev for QD: no
112. Dev asks Ben for 9S: no
113. Ben asks Fay for 9D: no
114. Fay asks Ben for 5C: no
115. Ben asks Eli for JH: no
116. Eli asks Ben for QS: no
117. Ben asks Fay for QD: no
118. Fay asks Cara for 5C: no
119. Cara asks Fay for 9C: no
120. Fay asks Ben for 4C: no
121. Ben asks Dev for JH: no
122. Dev claims high-spades: Fay 9S, Dev 10S QS KS AS, Eli JS: wrong; actual Eli 9S JS, Dev 10S QS KS AS
123. Dev passes to Fay
124. Fay asks Anna for 4C: yes
125. Fay claims low-clubs: Fay 2C 3C 4C 6C 7C, Eli 5C: correct
126. Anna claims high-hearts: Ben 9H 10H QH KH AH, Anna JH: correct
127. Anna claims high-diamonds: Cara 9D 10D JD QD, Anna KD, Ben AD: correct
128. Anna claims high-clubs: Anna 9C QC, Cara 10C JC KC AC: correct
