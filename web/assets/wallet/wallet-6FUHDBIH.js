import{a as p,b as f,c as R,d as bo,e as Pt,f as yo,h as xo}from"./wallet-4CP3XFF5.js";import{$ as g,S as nt,V as u,W as Se,Z as Lt,_ as mo,ba as C,fa as k,ga as F,ha as Z,ia as h,ka as go,oa as wo}from"./wallet-UAO77P3Z.js";import{A as K,B as po,C as P,D as T,E as je,F as ho,G as b,H as _e,I as z,N as fo,P as y,V as G,W as it,a as Ue,f as tt,p as ot,q as uo,r as x,u as N,v as le,x as rt,z as Wt}from"./wallet-FVIJNJ5F.js";import"./wallet-7ERVIM4T.js";import"./wallet-EL3IHEUY.js";import"./wallet-SDET7ZGD.js";import"./wallet-4BCU7FVP.js";import"./wallet-ACOBJC5X.js";import"./wallet-7TOJT7FB.js";import{c as S,f as ni,o as a}from"./wallet-ZN2X4MQE.js";var Po=S((Yl,Lo)=>{a();Lo.exports=function(){return typeof Promise=="function"&&Promise.prototype&&Promise.prototype.then}});var ce=S(be=>{a();var kt,ui=[0,26,44,70,100,134,172,196,242,292,346,404,466,532,581,655,733,815,901,991,1085,1156,1258,1364,1474,1588,1706,1828,1921,2051,2185,2323,2465,2611,2761,2876,3034,3196,3362,3532,3706];be.getSymbolSize=function(e){if(!e)throw new Error('"version" cannot be null or undefined');if(e<1||e>40)throw new Error('"version" should be in range from 1 to 40');return e*4+17};be.getSymbolTotalCodewords=function(e){return ui[e]};be.getBCHDigit=function(t){let e=0;for(;t!==0;)e++,t>>>=1;return e};be.setToSJISFunction=function(e){if(typeof e!="function")throw new Error('"toSJISFunc" is not a valid function.');kt=e};be.isKanjiModeEnabled=function(){return typeof kt<"u"};be.toSJIS=function(e){return kt(e)}});var ut=S(Q=>{a();Q.L={bit:1};Q.M={bit:0};Q.Q={bit:3};Q.H={bit:2};function di(t){if(typeof t!="string")throw new Error("Param is not a string");switch(t.toLowerCase()){case"l":case"low":return Q.L;case"m":case"medium":return Q.M;case"q":case"quartile":return Q.Q;case"h":case"high":return Q.H;default:throw new Error("Unknown EC Level: "+t)}}Q.isValid=function(e){return e&&typeof e.bit<"u"&&e.bit>=0&&e.bit<4};Q.from=function(e,o){if(Q.isValid(e))return e;try{return di(e)}catch{return o}}});var No=S((ra,ko)=>{a();function Bo(){this.buffer=[],this.length=0}Bo.prototype={get:function(t){let e=Math.floor(t/8);return(this.buffer[e]>>>7-t%8&1)===1},put:function(t,e){for(let o=0;o<e;o++)this.putBit((t>>>e-o-1&1)===1)},getLengthInBits:function(){return this.length},putBit:function(t){let e=Math.floor(this.length/8);this.buffer.length<=e&&this.buffer.push(0),t&&(this.buffer[e]|=128>>>this.length%8),this.length++}};ko.exports=Bo});var Do=S((na,Oo)=>{a();function Fe(t){if(!t||t<1)throw new Error("BitMatrix size must be defined and greater than 0");this.size=t,this.data=new Uint8Array(t*t),this.reservedBit=new Uint8Array(t*t)}Fe.prototype.set=function(t,e,o,r){let n=t*this.size+e;this.data[n]=o,r&&(this.reservedBit[n]=!0)};Fe.prototype.get=function(t,e){return this.data[t*this.size+e]};Fe.prototype.xor=function(t,e,o){this.data[t*this.size+e]^=o};Fe.prototype.isReserved=function(t,e){return this.reservedBit[t*this.size+e]};Oo.exports=Fe});var Mo=S(dt=>{a();var pi=ce().getSymbolSize;dt.getRowColCoords=function(e){if(e===1)return[];let o=Math.floor(e/7)+2,r=pi(e),n=r===145?26:Math.ceil((r-13)/(2*o-2))*2,i=[r-7];for(let s=1;s<o-1;s++)i[s]=i[s-1]-n;return i.push(6),i.reverse()};dt.getPositions=function(e){let o=[],r=dt.getRowColCoords(e),n=r.length;for(let i=0;i<n;i++)for(let s=0;s<n;s++)i===0&&s===0||i===0&&s===n-1||i===n-1&&s===0||o.push([r[i],r[s]]);return o}});var zo=S(jo=>{a();var hi=ce().getSymbolSize,Uo=7;jo.getPositions=function(e){let o=hi(e);return[[0,0],[o-Uo,0],[0,o-Uo]]}});var qo=S(I=>{a();I.Patterns={PATTERN000:0,PATTERN001:1,PATTERN010:2,PATTERN011:3,PATTERN100:4,PATTERN101:5,PATTERN110:6,PATTERN111:7};var ye={N1:3,N2:3,N3:40,N4:10};I.isValid=function(e){return e!=null&&e!==""&&!isNaN(e)&&e>=0&&e<=7};I.from=function(e){return I.isValid(e)?parseInt(e,10):void 0};I.getPenaltyN1=function(e){let o=e.size,r=0,n=0,i=0,s=null,l=null;for(let c=0;c<o;c++){n=i=0,s=l=null;for(let m=0;m<o;m++){let w=e.get(c,m);w===s?n++:(n>=5&&(r+=ye.N1+(n-5)),s=w,n=1),w=e.get(m,c),w===l?i++:(i>=5&&(r+=ye.N1+(i-5)),l=w,i=1)}n>=5&&(r+=ye.N1+(n-5)),i>=5&&(r+=ye.N1+(i-5))}return r};I.getPenaltyN2=function(e){let o=e.size,r=0;for(let n=0;n<o-1;n++)for(let i=0;i<o-1;i++){let s=e.get(n,i)+e.get(n,i+1)+e.get(n+1,i)+e.get(n+1,i+1);(s===4||s===0)&&r++}return r*ye.N2};I.getPenaltyN3=function(e){let o=e.size,r=0,n=0,i=0;for(let s=0;s<o;s++){n=i=0;for(let l=0;l<o;l++)n=n<<1&2047|e.get(s,l),l>=10&&(n===1488||n===93)&&r++,i=i<<1&2047|e.get(l,s),l>=10&&(i===1488||i===93)&&r++}return r*ye.N3};I.getPenaltyN4=function(e){let o=0,r=e.data.length;for(let i=0;i<r;i++)o+=e.data[i];return Math.abs(Math.ceil(o*100/r/5)-10)*ye.N4};function fi(t,e,o){switch(t){case I.Patterns.PATTERN000:return(e+o)%2===0;case I.Patterns.PATTERN001:return e%2===0;case I.Patterns.PATTERN010:return o%3===0;case I.Patterns.PATTERN011:return(e+o)%3===0;case I.Patterns.PATTERN100:return(Math.floor(e/2)+Math.floor(o/3))%2===0;case I.Patterns.PATTERN101:return e*o%2+e*o%3===0;case I.Patterns.PATTERN110:return(e*o%2+e*o%3)%2===0;case I.Patterns.PATTERN111:return(e*o%3+(e+o)%2)%2===0;default:throw new Error("bad maskPattern:"+t)}}I.applyMask=function(e,o){let r=o.size;for(let n=0;n<r;n++)for(let i=0;i<r;i++)o.isReserved(i,n)||o.xor(i,n,fi(e,i,n))};I.getBestMask=function(e,o){let r=Object.keys(I.Patterns).length,n=0,i=1/0;for(let s=0;s<r;s++){o(s),I.applyMask(s,e);let l=I.getPenaltyN1(e)+I.getPenaltyN2(e)+I.getPenaltyN3(e)+I.getPenaltyN4(e);I.applyMask(s,e),l<i&&(i=l,n=s)}return n}});var Ot=S(Nt=>{a();var ue=ut(),pt=[1,1,1,1,1,1,1,1,1,1,2,2,1,2,2,4,1,2,4,4,2,4,4,4,2,4,6,5,2,4,6,6,2,5,8,8,4,5,8,8,4,5,8,11,4,8,10,11,4,9,12,16,4,9,16,16,6,10,12,18,6,10,17,16,6,11,16,19,6,13,18,21,7,14,21,25,8,16,20,25,8,17,23,25,9,17,23,34,9,18,25,30,10,20,27,32,12,21,29,35,12,23,34,37,12,25,34,40,13,26,35,42,14,28,38,45,15,29,40,48,16,31,43,51,17,33,45,54,18,35,48,57,19,37,51,60,19,38,53,63,20,40,56,66,21,43,59,70,22,45,62,74,24,47,65,77,25,49,68,81],ht=[7,10,13,17,10,16,22,28,15,26,36,44,20,36,52,64,26,48,72,88,36,64,96,112,40,72,108,130,48,88,132,156,60,110,160,192,72,130,192,224,80,150,224,264,96,176,260,308,104,198,288,352,120,216,320,384,132,240,360,432,144,280,408,480,168,308,448,532,180,338,504,588,196,364,546,650,224,416,600,700,224,442,644,750,252,476,690,816,270,504,750,900,300,560,810,960,312,588,870,1050,336,644,952,1110,360,700,1020,1200,390,728,1050,1260,420,784,1140,1350,450,812,1200,1440,480,868,1290,1530,510,924,1350,1620,540,980,1440,1710,570,1036,1530,1800,570,1064,1590,1890,600,1120,1680,1980,630,1204,1770,2100,660,1260,1860,2220,720,1316,1950,2310,750,1372,2040,2430];Nt.getBlocksCount=function(e,o){switch(o){case ue.L:return pt[(e-1)*4+0];case ue.M:return pt[(e-1)*4+1];case ue.Q:return pt[(e-1)*4+2];case ue.H:return pt[(e-1)*4+3];default:return}};Nt.getTotalCodewordsCount=function(e,o){switch(o){case ue.L:return ht[(e-1)*4+0];case ue.M:return ht[(e-1)*4+1];case ue.Q:return ht[(e-1)*4+2];case ue.H:return ht[(e-1)*4+3];default:return}}});var Fo=S(mt=>{a();var Ve=new Uint8Array(512),ft=new Uint8Array(256);(function(){let e=1;for(let o=0;o<255;o++)Ve[o]=e,ft[e]=o,e<<=1,e&256&&(e^=285);for(let o=255;o<512;o++)Ve[o]=Ve[o-255]})();mt.log=function(e){if(e<1)throw new Error("log("+e+")");return ft[e]};mt.exp=function(e){return Ve[e]};mt.mul=function(e,o){return e===0||o===0?0:Ve[ft[e]+ft[o]]}});var Vo=S(He=>{a();var Dt=Fo();He.mul=function(e,o){let r=new Uint8Array(e.length+o.length-1);for(let n=0;n<e.length;n++)for(let i=0;i<o.length;i++)r[n+i]^=Dt.mul(e[n],o[i]);return r};He.mod=function(e,o){let r=new Uint8Array(e);for(;r.length-o.length>=0;){let n=r[0];for(let s=0;s<o.length;s++)r[s]^=Dt.mul(o[s],n);let i=0;for(;i<r.length&&r[i]===0;)i++;r=r.slice(i)}return r};He.generateECPolynomial=function(e){let o=new Uint8Array([1]);for(let r=0;r<e;r++)o=He.mul(o,new Uint8Array([1,Dt.exp(r)]));return o}});var Go=S((ya,Ko)=>{a();var Ho=Vo();function Mt(t){this.genPoly=void 0,this.degree=t,this.degree&&this.initialize(this.degree)}Mt.prototype.initialize=function(e){this.degree=e,this.genPoly=Ho.generateECPolynomial(this.degree)};Mt.prototype.encode=function(e){if(!this.genPoly)throw new Error("Encoder not initialized");let o=new Uint8Array(e.length+this.degree);o.set(e);let r=Ho.mod(o,this.genPoly),n=this.degree-r.length;if(n>0){let i=new Uint8Array(this.degree);return i.set(r,n),i}return r};Ko.exports=Mt});var Ut=S(Qo=>{a();Qo.isValid=function(e){return!isNaN(e)&&e>=1&&e<=40}});var jt=S(ie=>{a();var Jo="[0-9]+",mi="[A-Z $%*+\\-./:]+",Ke="(?:[u3000-u303F]|[u3040-u309F]|[u30A0-u30FF]|[uFF00-uFFEF]|[u4E00-u9FAF]|[u2605-u2606]|[u2190-u2195]|u203B|[u2010u2015u2018u2019u2025u2026u201Cu201Du2225u2260]|[u0391-u0451]|[u00A7u00A8u00B1u00B4u00D7u00F7])+";Ke=Ke.replace(/u/g,"\\u");var gi="(?:(?![A-Z0-9 $%*+\\-./:]|"+Ke+`)(?:.|[\r
]))+`;ie.KANJI=new RegExp(Ke,"g");ie.BYTE_KANJI=new RegExp("[^A-Z0-9 $%*+\\-./:]+","g");ie.BYTE=new RegExp(gi,"g");ie.NUMERIC=new RegExp(Jo,"g");ie.ALPHANUMERIC=new RegExp(mi,"g");var wi=new RegExp("^"+Ke+"$"),bi=new RegExp("^"+Jo+"$"),yi=new RegExp("^[A-Z0-9 $%*+\\-./:]+$");ie.testKanji=function(e){return wi.test(e)};ie.testNumeric=function(e){return bi.test(e)};ie.testAlphanumeric=function(e){return yi.test(e)}});var de=S(D=>{a();var xi=Ut(),zt=jt();D.NUMERIC={id:"Numeric",bit:1,ccBits:[10,12,14]};D.ALPHANUMERIC={id:"Alphanumeric",bit:2,ccBits:[9,11,13]};D.BYTE={id:"Byte",bit:4,ccBits:[8,16,16]};D.KANJI={id:"Kanji",bit:8,ccBits:[8,10,12]};D.MIXED={bit:-1};D.getCharCountIndicator=function(e,o){if(!e.ccBits)throw new Error("Invalid mode: "+e);if(!xi.isValid(o))throw new Error("Invalid version: "+o);return o>=1&&o<10?e.ccBits[0]:o<27?e.ccBits[1]:e.ccBits[2]};D.getBestModeForData=function(e){return zt.testNumeric(e)?D.NUMERIC:zt.testAlphanumeric(e)?D.ALPHANUMERIC:zt.testKanji(e)?D.KANJI:D.BYTE};D.toString=function(e){if(e&&e.id)return e.id;throw new Error("Invalid mode")};D.isValid=function(e){return e&&e.bit&&e.ccBits};function Ci(t){if(typeof t!="string")throw new Error("Param is not a string");switch(t.toLowerCase()){case"numeric":return D.NUMERIC;case"alphanumeric":return D.ALPHANUMERIC;case"kanji":return D.KANJI;case"byte":return D.BYTE;default:throw new Error("Unknown mode: "+t)}}D.from=function(e,o){if(D.isValid(e))return e;try{return Ci(e)}catch{return o}}});var tr=S(xe=>{a();var gt=ce(),vi=Ot(),Yo=ut(),pe=de(),qt=Ut(),Zo=7973,Xo=gt.getBCHDigit(Zo);function $i(t,e,o){for(let r=1;r<=40;r++)if(e<=xe.getCapacity(r,o,t))return r}function er(t,e){return pe.getCharCountIndicator(t,e)+4}function Ei(t,e){let o=0;return t.forEach(function(r){let n=er(r.mode,e);o+=n+r.getBitsLength()}),o}function Ri(t,e){for(let o=1;o<=40;o++)if(Ei(t,o)<=xe.getCapacity(o,e,pe.MIXED))return o}xe.from=function(e,o){return qt.isValid(e)?parseInt(e,10):o};xe.getCapacity=function(e,o,r){if(!qt.isValid(e))throw new Error("Invalid QR Code version");typeof r>"u"&&(r=pe.BYTE);let n=gt.getSymbolTotalCodewords(e),i=vi.getTotalCodewordsCount(e,o),s=(n-i)*8;if(r===pe.MIXED)return s;let l=s-er(r,e);switch(r){case pe.NUMERIC:return Math.floor(l/10*3);case pe.ALPHANUMERIC:return Math.floor(l/11*2);case pe.KANJI:return Math.floor(l/13);case pe.BYTE:default:return Math.floor(l/8)}};xe.getBestVersionForData=function(e,o){let r,n=Yo.from(o,Yo.M);if(Array.isArray(e)){if(e.length>1)return Ri(e,n);if(e.length===0)return 1;r=e[0]}else r=e;return $i(r.mode,r.getLength(),n)};xe.getEncodedBits=function(e){if(!qt.isValid(e)||e<7)throw new Error("Invalid QR Code version");let o=e<<12;for(;gt.getBCHDigit(o)-Xo>=0;)o^=Zo<<gt.getBCHDigit(o)-Xo;return e<<12|o}});var nr=S(ir=>{a();var Ft=ce(),rr=1335,_i=21522,or=Ft.getBCHDigit(rr);ir.getEncodedBits=function(e,o){let r=e.bit<<3|o,n=r<<10;for(;Ft.getBCHDigit(n)-or>=0;)n^=rr<<Ft.getBCHDigit(n)-or;return(r<<10|n)^_i}});var lr=S((Wa,sr)=>{a();var Si=de();function Le(t){this.mode=Si.NUMERIC,this.data=t.toString()}Le.getBitsLength=function(e){return 10*Math.floor(e/3)+(e%3?e%3*3+1:0)};Le.prototype.getLength=function(){return this.data.length};Le.prototype.getBitsLength=function(){return Le.getBitsLength(this.data.length)};Le.prototype.write=function(e){let o,r,n;for(o=0;o+3<=this.data.length;o+=3)r=this.data.substr(o,3),n=parseInt(r,10),e.put(n,10);let i=this.data.length-o;i>0&&(r=this.data.substr(o),n=parseInt(r,10),e.put(n,i*3+1))};sr.exports=Le});var cr=S((Pa,ar)=>{a();var Ai=de(),Vt=["0","1","2","3","4","5","6","7","8","9","A","B","C","D","E","F","G","H","I","J","K","L","M","N","O","P","Q","R","S","T","U","V","W","X","Y","Z"," ","$","%","*","+","-",".","/",":"];function Pe(t){this.mode=Ai.ALPHANUMERIC,this.data=t}Pe.getBitsLength=function(e){return 11*Math.floor(e/2)+6*(e%2)};Pe.prototype.getLength=function(){return this.data.length};Pe.prototype.getBitsLength=function(){return Pe.getBitsLength(this.data.length)};Pe.prototype.write=function(e){let o;for(o=0;o+2<=this.data.length;o+=2){let r=Vt.indexOf(this.data[o])*45;r+=Vt.indexOf(this.data[o+1]),e.put(r,11)}this.data.length%2&&e.put(Vt.indexOf(this.data[o]),6)};ar.exports=Pe});var dr=S((ka,ur)=>{"use strict";a();ur.exports=function(e){for(var o=[],r=e.length,n=0;n<r;n++){var i=e.charCodeAt(n);if(i>=55296&&i<=56319&&r>n+1){var s=e.charCodeAt(n+1);s>=56320&&s<=57343&&(i=(i-55296)*1024+s-56320+65536,n+=1)}if(i<128){o.push(i);continue}if(i<2048){o.push(i>>6|192),o.push(i&63|128);continue}if(i<55296||i>=57344&&i<65536){o.push(i>>12|224),o.push(i>>6&63|128),o.push(i&63|128);continue}if(i>=65536&&i<=1114111){o.push(i>>18|240),o.push(i>>12&63|128),o.push(i>>6&63|128),o.push(i&63|128);continue}o.push(239,191,189)}return new Uint8Array(o).buffer}});var hr=S((Oa,pr)=>{a();var Ti=dr(),Ii=de();function Be(t){this.mode=Ii.BYTE,typeof t=="string"&&(t=Ti(t)),this.data=new Uint8Array(t)}Be.getBitsLength=function(e){return e*8};Be.prototype.getLength=function(){return this.data.length};Be.prototype.getBitsLength=function(){return Be.getBitsLength(this.data.length)};Be.prototype.write=function(t){for(let e=0,o=this.data.length;e<o;e++)t.put(this.data[e],8)};pr.exports=Be});var mr=S((Ma,fr)=>{a();var Wi=de(),Li=ce();function ke(t){this.mode=Wi.KANJI,this.data=t}ke.getBitsLength=function(e){return e*13};ke.prototype.getLength=function(){return this.data.length};ke.prototype.getBitsLength=function(){return ke.getBitsLength(this.data.length)};ke.prototype.write=function(t){let e;for(e=0;e<this.data.length;e++){let o=Li.toSJIS(this.data[e]);if(o>=33088&&o<=40956)o-=33088;else if(o>=57408&&o<=60351)o-=49472;else throw new Error("Invalid SJIS character: "+this.data[e]+`
Make sure your charset is UTF-8`);o=(o>>>8&255)*192+(o&255),t.put(o,13)}};fr.exports=ke});var gr=S((ja,Ht)=>{"use strict";a();var Ge={single_source_shortest_paths:function(t,e,o){var r={},n={};n[e]=0;var i=Ge.PriorityQueue.make();i.push(e,0);for(var s,l,c,m,w,L,v,q,j;!i.empty();){s=i.pop(),l=s.value,m=s.cost,w=t[l]||{};for(c in w)w.hasOwnProperty(c)&&(L=w[c],v=m+L,q=n[c],j=typeof n[c]>"u",(j||q>v)&&(n[c]=v,i.push(c,v),r[c]=l))}if(typeof o<"u"&&typeof n[o]>"u"){var $=["Could not find a path from ",e," to ",o,"."].join("");throw new Error($)}return r},extract_shortest_path_from_predecessor_list:function(t,e){for(var o=[],r=e,n;r;)o.push(r),n=t[r],r=t[r];return o.reverse(),o},find_path:function(t,e,o){var r=Ge.single_source_shortest_paths(t,e,o);return Ge.extract_shortest_path_from_predecessor_list(r,o)},PriorityQueue:{make:function(t){var e=Ge.PriorityQueue,o={},r;t=t||{};for(r in e)e.hasOwnProperty(r)&&(o[r]=e[r]);return o.queue=[],o.sorter=t.sorter||e.default_sorter,o},default_sorter:function(t,e){return t.cost-e.cost},push:function(t,e){var o={value:t,cost:e};this.queue.push(o),this.queue.sort(this.sorter)},pop:function(){return this.queue.shift()},empty:function(){return this.queue.length===0}}};typeof Ht<"u"&&(Ht.exports=Ge)});var Er=S(Ne=>{a();var _=de(),yr=lr(),xr=cr(),Cr=hr(),vr=mr(),Qe=jt(),wt=ce(),Pi=gr();function wr(t){return unescape(encodeURIComponent(t)).length}function Je(t,e,o){let r=[],n;for(;(n=t.exec(o))!==null;)r.push({data:n[0],index:n.index,mode:e,length:n[0].length});return r}function $r(t){let e=Je(Qe.NUMERIC,_.NUMERIC,t),o=Je(Qe.ALPHANUMERIC,_.ALPHANUMERIC,t),r,n;return wt.isKanjiModeEnabled()?(r=Je(Qe.BYTE,_.BYTE,t),n=Je(Qe.KANJI,_.KANJI,t)):(r=Je(Qe.BYTE_KANJI,_.BYTE,t),n=[]),e.concat(o,r,n).sort(function(s,l){return s.index-l.index}).map(function(s){return{data:s.data,mode:s.mode,length:s.length}})}function Kt(t,e){switch(e){case _.NUMERIC:return yr.getBitsLength(t);case _.ALPHANUMERIC:return xr.getBitsLength(t);case _.KANJI:return vr.getBitsLength(t);case _.BYTE:return Cr.getBitsLength(t)}}function Bi(t){return t.reduce(function(e,o){let r=e.length-1>=0?e[e.length-1]:null;return r&&r.mode===o.mode?(e[e.length-1].data+=o.data,e):(e.push(o),e)},[])}function ki(t){let e=[];for(let o=0;o<t.length;o++){let r=t[o];switch(r.mode){case _.NUMERIC:e.push([r,{data:r.data,mode:_.ALPHANUMERIC,length:r.length},{data:r.data,mode:_.BYTE,length:r.length}]);break;case _.ALPHANUMERIC:e.push([r,{data:r.data,mode:_.BYTE,length:r.length}]);break;case _.KANJI:e.push([r,{data:r.data,mode:_.BYTE,length:wr(r.data)}]);break;case _.BYTE:e.push([{data:r.data,mode:_.BYTE,length:wr(r.data)}])}}return e}function Ni(t,e){let o={},r={start:{}},n=["start"];for(let i=0;i<t.length;i++){let s=t[i],l=[];for(let c=0;c<s.length;c++){let m=s[c],w=""+i+c;l.push(w),o[w]={node:m,lastCount:0},r[w]={};for(let L=0;L<n.length;L++){let v=n[L];o[v]&&o[v].node.mode===m.mode?(r[v][w]=Kt(o[v].lastCount+m.length,m.mode)-Kt(o[v].lastCount,m.mode),o[v].lastCount+=m.length):(o[v]&&(o[v].lastCount=m.length),r[v][w]=Kt(m.length,m.mode)+4+_.getCharCountIndicator(m.mode,e))}}n=l}for(let i=0;i<n.length;i++)r[n[i]].end=0;return{map:r,table:o}}function br(t,e){let o,r=_.getBestModeForData(t);if(o=_.from(e,r),o!==_.BYTE&&o.bit<r.bit)throw new Error('"'+t+'" cannot be encoded with mode '+_.toString(o)+`.
 Suggested mode is: `+_.toString(r));switch(o===_.KANJI&&!wt.isKanjiModeEnabled()&&(o=_.BYTE),o){case _.NUMERIC:return new yr(t);case _.ALPHANUMERIC:return new xr(t);case _.KANJI:return new vr(t);case _.BYTE:return new Cr(t)}}Ne.fromArray=function(e){return e.reduce(function(o,r){return typeof r=="string"?o.push(br(r,null)):r.data&&o.push(br(r.data,r.mode)),o},[])};Ne.fromString=function(e,o){let r=$r(e,wt.isKanjiModeEnabled()),n=ki(r),i=Ni(n,o),s=Pi.find_path(i.map,"start","end"),l=[];for(let c=1;c<s.length-1;c++)l.push(i.table[s[c]].node);return Ne.fromArray(Bi(l))};Ne.rawSplit=function(e){return Ne.fromArray($r(e,wt.isKanjiModeEnabled()))}});var _r=S(Rr=>{a();var yt=ce(),Gt=ut(),Oi=No(),Di=Do(),Mi=Mo(),Ui=zo(),Yt=qo(),Xt=Ot(),ji=Go(),bt=tr(),zi=nr(),qi=de(),Qt=Er();function Fi(t,e){let o=t.size,r=Ui.getPositions(e);for(let n=0;n<r.length;n++){let i=r[n][0],s=r[n][1];for(let l=-1;l<=7;l++)if(!(i+l<=-1||o<=i+l))for(let c=-1;c<=7;c++)s+c<=-1||o<=s+c||(l>=0&&l<=6&&(c===0||c===6)||c>=0&&c<=6&&(l===0||l===6)||l>=2&&l<=4&&c>=2&&c<=4?t.set(i+l,s+c,!0,!0):t.set(i+l,s+c,!1,!0))}}function Vi(t){let e=t.size;for(let o=8;o<e-8;o++){let r=o%2===0;t.set(o,6,r,!0),t.set(6,o,r,!0)}}function Hi(t,e){let o=Mi.getPositions(e);for(let r=0;r<o.length;r++){let n=o[r][0],i=o[r][1];for(let s=-2;s<=2;s++)for(let l=-2;l<=2;l++)s===-2||s===2||l===-2||l===2||s===0&&l===0?t.set(n+s,i+l,!0,!0):t.set(n+s,i+l,!1,!0)}}function Ki(t,e){let o=t.size,r=bt.getEncodedBits(e),n,i,s;for(let l=0;l<18;l++)n=Math.floor(l/3),i=l%3+o-8-3,s=(r>>l&1)===1,t.set(n,i,s,!0),t.set(i,n,s,!0)}function Jt(t,e,o){let r=t.size,n=zi.getEncodedBits(e,o),i,s;for(i=0;i<15;i++)s=(n>>i&1)===1,i<6?t.set(i,8,s,!0):i<8?t.set(i+1,8,s,!0):t.set(r-15+i,8,s,!0),i<8?t.set(8,r-i-1,s,!0):i<9?t.set(8,15-i-1+1,s,!0):t.set(8,15-i-1,s,!0);t.set(r-8,8,1,!0)}function Gi(t,e){let o=t.size,r=-1,n=o-1,i=7,s=0;for(let l=o-1;l>0;l-=2)for(l===6&&l--;;){for(let c=0;c<2;c++)if(!t.isReserved(n,l-c)){let m=!1;s<e.length&&(m=(e[s]>>>i&1)===1),t.set(n,l-c,m),i--,i===-1&&(s++,i=7)}if(n+=r,n<0||o<=n){n-=r,r=-r;break}}}function Qi(t,e,o){let r=new Oi;o.forEach(function(c){r.put(c.mode.bit,4),r.put(c.getLength(),qi.getCharCountIndicator(c.mode,t)),c.write(r)});let n=yt.getSymbolTotalCodewords(t),i=Xt.getTotalCodewordsCount(t,e),s=(n-i)*8;for(r.getLengthInBits()+4<=s&&r.put(0,4);r.getLengthInBits()%8!==0;)r.putBit(0);let l=(s-r.getLengthInBits())/8;for(let c=0;c<l;c++)r.put(c%2?17:236,8);return Ji(r,t,e)}function Ji(t,e,o){let r=yt.getSymbolTotalCodewords(e),n=Xt.getTotalCodewordsCount(e,o),i=r-n,s=Xt.getBlocksCount(e,o),l=r%s,c=s-l,m=Math.floor(r/s),w=Math.floor(i/s),L=w+1,v=m-w,q=new ji(v),j=0,$=new Array(s),E=new Array(s),M=0,A=new Uint8Array(t.buffer);for(let Re=0;Re<s;Re++){let It=Re<c?w:L;$[Re]=A.slice(j,j+It),E[Re]=q.encode($[Re]),j+=It,M=Math.max(M,It)}let U=new Uint8Array(r),B=0,O,re;for(O=0;O<M;O++)for(re=0;re<s;re++)O<$[re].length&&(U[B++]=$[re][O]);for(O=0;O<v;O++)for(re=0;re<s;re++)U[B++]=E[re][O];return U}function Yi(t,e,o,r){let n;if(Array.isArray(t))n=Qt.fromArray(t);else if(typeof t=="string"){let m=e;if(!m){let w=Qt.rawSplit(t);m=bt.getBestVersionForData(w,o)}n=Qt.fromString(t,m||40)}else throw new Error("Invalid data");let i=bt.getBestVersionForData(n,o);if(!i)throw new Error("The amount of data is too big to be stored in a QR Code");if(!e)e=i;else if(e<i)throw new Error(`
The chosen QR Code version cannot contain this amount of data.
Minimum version required to store current data is: `+i+`.
`);let s=Qi(e,o,n),l=yt.getSymbolSize(e),c=new Di(l);return Fi(c,e),Vi(c),Hi(c,e),Jt(c,o,0),e>=7&&Ki(c,e),Gi(c,s),isNaN(r)&&(r=Yt.getBestMask(c,Jt.bind(null,c,o))),Yt.applyMask(r,c),Jt(c,o,r),{modules:c,version:e,errorCorrectionLevel:o,maskPattern:r,segments:n}}Rr.create=function(e,o){if(typeof e>"u"||e==="")throw new Error("No input text");let r=Gt.M,n,i;return typeof o<"u"&&(r=Gt.from(o.errorCorrectionLevel,Gt.M),n=bt.from(o.version),i=Yt.from(o.maskPattern),o.toSJISFunc&&yt.setToSJISFunction(o.toSJISFunc)),Yi(e,n,r,i)}});var Zt=S(Ce=>{a();function Sr(t){if(typeof t=="number"&&(t=t.toString()),typeof t!="string")throw new Error("Color should be defined as hex string");let e=t.slice().replace("#","").split("");if(e.length<3||e.length===5||e.length>8)throw new Error("Invalid hex color: "+t);(e.length===3||e.length===4)&&(e=Array.prototype.concat.apply([],e.map(function(r){return[r,r]}))),e.length===6&&e.push("F","F");let o=parseInt(e.join(""),16);return{r:o>>24&255,g:o>>16&255,b:o>>8&255,a:o&255,hex:"#"+e.slice(0,6).join("")}}Ce.getOptions=function(e){e||(e={}),e.color||(e.color={});let o=typeof e.margin>"u"||e.margin===null||e.margin<0?4:e.margin,r=e.width&&e.width>=21?e.width:void 0,n=e.scale||4;return{width:r,scale:r?4:n,margin:o,color:{dark:Sr(e.color.dark||"#000000ff"),light:Sr(e.color.light||"#ffffffff")},type:e.type,rendererOpts:e.rendererOpts||{}}};Ce.getScale=function(e,o){return o.width&&o.width>=e+o.margin*2?o.width/(e+o.margin*2):o.scale};Ce.getImageWidth=function(e,o){let r=Ce.getScale(e,o);return Math.floor((e+o.margin*2)*r)};Ce.qrToImageData=function(e,o,r){let n=o.modules.size,i=o.modules.data,s=Ce.getScale(n,r),l=Math.floor((n+r.margin*2)*s),c=r.margin*s,m=[r.color.light,r.color.dark];for(let w=0;w<l;w++)for(let L=0;L<l;L++){let v=(w*l+L)*4,q=r.color.light;if(w>=c&&L>=c&&w<l-c&&L<l-c){let j=Math.floor((w-c)/s),$=Math.floor((L-c)/s);q=m[i[j*n+$]?1:0]}e[v++]=q.r,e[v++]=q.g,e[v++]=q.b,e[v]=q.a}}});var Ar=S(xt=>{a();var eo=Zt();function Xi(t,e,o){t.clearRect(0,0,e.width,e.height),e.style||(e.style={}),e.height=o,e.width=o,e.style.height=o+"px",e.style.width=o+"px"}function Zi(){try{return document.createElement("canvas")}catch{throw new Error("You need to specify a canvas element")}}xt.render=function(e,o,r){let n=r,i=o;typeof n>"u"&&(!o||!o.getContext)&&(n=o,o=void 0),o||(i=Zi()),n=eo.getOptions(n);let s=eo.getImageWidth(e.modules.size,n),l=i.getContext("2d"),c=l.createImageData(s,s);return eo.qrToImageData(c.data,e,n),Xi(l,i,s),l.putImageData(c,0,0),i};xt.renderToDataURL=function(e,o,r){let n=r;typeof n>"u"&&(!o||!o.getContext)&&(n=o,o=void 0),n||(n={});let i=xt.render(e,o,n),s=n.type||"image/png",l=n.rendererOpts||{};return i.toDataURL(s,l.quality)}});var Wr=S(Ir=>{a();var en=Zt();function Tr(t,e){let o=t.a/255,r=e+'="'+t.hex+'"';return o<1?r+" "+e+'-opacity="'+o.toFixed(2).slice(1)+'"':r}function to(t,e,o){let r=t+e;return typeof o<"u"&&(r+=" "+o),r}function tn(t,e,o){let r="",n=0,i=!1,s=0;for(let l=0;l<t.length;l++){let c=Math.floor(l%e),m=Math.floor(l/e);!c&&!i&&(i=!0),t[l]?(s++,l>0&&c>0&&t[l-1]||(r+=i?to("M",c+o,.5+m+o):to("m",n,0),n=0,i=!1),c+1<e&&t[l+1]||(r+=to("h",s),s=0)):n++}return r}Ir.render=function(e,o,r){let n=en.getOptions(o),i=e.modules.size,s=e.modules.data,l=i+n.margin*2,c=n.color.light.a?"<path "+Tr(n.color.light,"fill")+' d="M0 0h'+l+"v"+l+'H0z"/>':"",m="<path "+Tr(n.color.dark,"stroke")+' d="'+tn(s,i,n.margin)+'"/>',w='viewBox="0 0 '+l+" "+l+'"',v='<svg xmlns="http://www.w3.org/2000/svg" '+(n.width?'width="'+n.width+'" height="'+n.width+'" ':"")+w+' shape-rendering="crispEdges">'+c+m+`</svg>
`;return typeof r=="function"&&r(null,v),v}});var Pr=S(Ye=>{a();var on=Po(),oo=_r(),Lr=Ar(),rn=Wr();function ro(t,e,o,r,n){let i=[].slice.call(arguments,1),s=i.length,l=typeof i[s-1]=="function";if(!l&&!on())throw new Error("Callback required as last argument");if(l){if(s<2)throw new Error("Too few arguments provided");s===2?(n=o,o=e,e=r=void 0):s===3&&(e.getContext&&typeof n>"u"?(n=r,r=void 0):(n=r,r=o,o=e,e=void 0))}else{if(s<1)throw new Error("Too few arguments provided");return s===1?(o=e,e=r=void 0):s===2&&!e.getContext&&(r=o,o=e,e=void 0),new Promise(function(c,m){try{let w=oo.create(o,r);c(t(w,e,r))}catch(w){m(w)}})}try{let c=oo.create(o,r);n(null,t(c,e,r))}catch(c){n(c)}}Ye.create=oo.create;Ye.toCanvas=ro.bind(null,Lr.render);Ye.toDataURL=ro.bind(null,Lr.renderToDataURL);Ye.toString=ro.bind(null,function(t,e,o){return rn.render(t,o)})});a();a();a();var Ae=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},fe=class extends g{constructor(){super(),this.unsubscribe=[],this.tabIdx=void 0,this.connectors=z.state.connectors,this.count=T.state.count,this.filteredCount=T.state.filteredWallets.length,this.isFetchingRecommendedWallets=T.state.isFetchingRecommendedWallets,this.unsubscribe.push(z.subscribeKey("connectors",e=>this.connectors=e),T.subscribeKey("count",e=>this.count=e),T.subscribeKey("filteredWallets",e=>this.filteredCount=e.length),T.subscribeKey("isFetchingRecommendedWallets",e=>this.isFetchingRecommendedWallets=e))}disconnectedCallback(){this.unsubscribe.forEach(e=>e())}render(){let e=this.connectors.find(m=>m.id==="walletConnect"),{allWallets:o}=N.state;if(!e||o==="HIDE"||o==="ONLY_MOBILE"&&!x.isMobile())return null;let r=T.state.featured.length,n=this.count+r,i=n<10?n:Math.floor(n/10)*10,s=this.filteredCount>0?this.filteredCount:i,l=`${s}`;this.filteredCount>0?l=`${this.filteredCount}`:s<n&&(l=`${s}+`);let c=y.hasAnyConnection(Ue.CONNECTOR_ID.WALLET_CONNECT);return u`
      <wui-list-wallet
        name="Search Wallet"
        walletIcon="search"
        showAllWallets
        @click=${this.onAllWallets.bind(this)}
        tagLabel=${l}
        tagVariant="info"
        data-testid="all-wallets"
        tabIdx=${R(this.tabIdx)}
        .loading=${this.isFetchingRecommendedWallets}
        ?disabled=${c}
        size="sm"
      ></wui-list-wallet>
    `}onAllWallets(){P.sendEvent({type:"track",event:"CLICK_ALL_WALLETS"}),b.push("AllWallets",{redirectView:b.state.data?.redirectView})}};Ae([p()],fe.prototype,"tabIdx",void 0);Ae([f()],fe.prototype,"connectors",void 0);Ae([f()],fe.prototype,"count",void 0);Ae([f()],fe.prototype,"filteredCount",void 0);Ae([f()],fe.prototype,"isFetchingRecommendedWallets",void 0);fe=Ae([h("w3m-all-wallets-widget")],fe);a();a();var Co=C`
  :host {
    margin-top: ${({spacing:t})=>t[1]};
  }
  wui-separator {
    margin: ${({spacing:t})=>t[3]} calc(${({spacing:t})=>t[3]} * -1)
      ${({spacing:t})=>t[2]} calc(${({spacing:t})=>t[3]} * -1);
    width: calc(100% + ${({spacing:t})=>t[3]} * 2);
  }
`;var Te=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},ae=class extends g{constructor(){super(),this.unsubscribe=[],this.explorerWallets=T.state.explorerWallets,this.connections=y.state.connections,this.connectorImages=Wt.state.connectorImages,this.loadingTelegram=!1,this.unsubscribe.push(y.subscribeKey("connections",e=>this.connections=e),Wt.subscribeKey("connectorImages",e=>this.connectorImages=e),T.subscribeKey("explorerFilteredWallets",e=>{this.explorerWallets=e?.length?e:T.state.explorerWallets}),T.subscribeKey("explorerWallets",e=>{this.explorerWallets?.length||(this.explorerWallets=e)})),x.isTelegram()&&x.isIos()&&(this.loadingTelegram=!y.state.wcUri,this.unsubscribe.push(y.subscribeKey("wcUri",e=>this.loadingTelegram=!e)))}disconnectedCallback(){this.unsubscribe.forEach(e=>e())}render(){return u`
      <wui-flex flexDirection="column" gap="2"> ${this.connectorListTemplate()} </wui-flex>
    `}connectorListTemplate(){return ho.connectorList().map((e,o)=>e.kind==="connector"?this.renderConnector(e,o):this.renderWallet(e,o))}getConnectorNamespaces(e){return e.subtype==="walletConnect"?[]:e.subtype==="multiChain"?e.connector.connectors?.map(o=>o.chain)||[]:[e.connector.chain]}renderConnector(e,o){let r=e.connector,n=K.getConnectorImage(r)||this.connectorImages[r?.imageId??""],s=(this.connections.get(r.chain)??[]).some(L=>go.isLowerCaseMatch(L.connectorId,r.id)),l,c;e.subtype==="walletConnect"?(l="qr code",c="accent"):e.subtype==="injected"||e.subtype==="announced"?(l=s?"connected":"installed",c=s?"info":"success"):(l=void 0,c=void 0);let m=y.hasAnyConnection(Ue.CONNECTOR_ID.WALLET_CONNECT),w=e.subtype==="walletConnect"||e.subtype==="external"?m:!1;return u`
      <w3m-list-wallet
        displayIndex=${o}
        imageSrc=${R(n)}
        .installed=${!0}
        name=${r.name??"Unknown"}
        .tagVariant=${c}
        tagLabel=${R(l)}
        data-testid=${`wallet-selector-${r.id.toLowerCase()}`}
        size="sm"
        @click=${()=>this.onClickConnector(e)}
        tabIdx=${R(this.tabIdx)}
        ?disabled=${w}
        rdnsId=${R(r.explorerWallet?.rdns||void 0)}
        walletRank=${R(r.explorerWallet?.order)}
        .namespaces=${this.getConnectorNamespaces(e)}
      >
      </w3m-list-wallet>
    `}onClickConnector(e){let o=b.state.data?.redirectView;if(e.subtype==="walletConnect"){z.setActiveConnector(e.connector),x.isMobile()?b.push("AllWallets"):b.push("ConnectingWalletConnect",{redirectView:o});return}if(e.subtype==="multiChain"){z.setActiveConnector(e.connector),b.push("ConnectingMultiChain",{redirectView:o});return}if(e.subtype==="injected"){z.setActiveConnector(e.connector),b.push("ConnectingExternal",{connector:e.connector,redirectView:o,wallet:e.connector.explorerWallet});return}if(e.subtype==="announced"){if(e.connector.id==="walletConnect"){x.isMobile()?b.push("AllWallets"):b.push("ConnectingWalletConnect",{redirectView:o});return}b.push("ConnectingExternal",{connector:e.connector,redirectView:o,wallet:e.connector.explorerWallet});return}b.push("ConnectingExternal",{connector:e.connector,redirectView:o})}renderWallet(e,o){let r=e.wallet,n=K.getWalletImage(r),s=y.hasAnyConnection(Ue.CONNECTOR_ID.WALLET_CONNECT),l=this.loadingTelegram,c=e.subtype==="recent"?"recent":void 0,m=e.subtype==="recent"?"info":void 0;return u`
      <w3m-list-wallet
        displayIndex=${o}
        imageSrc=${R(n)}
        name=${r.name??"Unknown"}
        @click=${()=>this.onClickWallet(e)}
        size="sm"
        data-testid=${`wallet-selector-${r.id}`}
        tabIdx=${R(this.tabIdx)}
        ?loading=${l}
        ?disabled=${s}
        rdnsId=${R(r.rdns||void 0)}
        walletRank=${R(r.order)}
        tagLabel=${R(c)}
        .tagVariant=${m}
      >
      </w3m-list-wallet>
    `}onClickWallet(e){let o=b.state.data?.redirectView,r=G.state.activeChain;if(e.subtype==="featured"){z.selectWalletConnector(e.wallet);return}if(e.subtype==="recent"){if(this.loadingTelegram)return;z.selectWalletConnector(e.wallet);return}if(e.subtype==="custom"){if(this.loadingTelegram)return;b.push("ConnectingWalletConnect",{wallet:e.wallet,redirectView:o});return}if(this.loadingTelegram)return;let n=r?z.getConnector({id:e.wallet.id,namespace:r}):void 0;n?b.push("ConnectingExternal",{connector:n,redirectView:o}):b.push("ConnectingWalletConnect",{wallet:e.wallet,redirectView:o})}};ae.styles=Co;Te([p({type:Number})],ae.prototype,"tabIdx",void 0);Te([f()],ae.prototype,"explorerWallets",void 0);Te([f()],ae.prototype,"connections",void 0);Te([f()],ae.prototype,"connectorImages",void 0);Te([f()],ae.prototype,"loadingTelegram",void 0);ae=Te([h("w3m-connector-list")],ae);a();a();a();a();a();a();var vo=C`
  :host {
    flex: 1;
    height: 100%;
  }

  button {
    width: 100%;
    height: 100%;
    display: inline-flex;
    align-items: center;
    padding: ${({spacing:t})=>t[1]} ${({spacing:t})=>t[2]};
    column-gap: ${({spacing:t})=>t[1]};
    color: ${({tokens:t})=>t.theme.textSecondary};
    border-radius: ${({borderRadius:t})=>t[20]};
    background-color: transparent;
    transition: background-color ${({durations:t})=>t.lg}
      ${({easings:t})=>t["ease-out-power-2"]};
    will-change: background-color;
  }

  /* -- Hover & Active states ----------------------------------------------------------- */
  button[data-active='true'] {
    color: ${({tokens:t})=>t.theme.textPrimary};
    background-color: ${({tokens:t})=>t.theme.foregroundTertiary};
  }

  button:hover:enabled:not([data-active='true']),
  button:active:enabled:not([data-active='true']) {
    wui-text,
    wui-icon {
      color: ${({tokens:t})=>t.theme.textPrimary};
    }
  }
`;var ze=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},si={lg:"lg-regular",md:"md-regular",sm:"sm-regular"},li={lg:"md",md:"sm",sm:"sm"},me=class extends g{constructor(){super(...arguments),this.icon="mobile",this.size="md",this.label="",this.active=!1}render(){return u`
      <button data-active=${this.active}>
        ${this.icon?u`<wui-icon size=${li[this.size]} name=${this.icon}></wui-icon>`:""}
        <wui-text variant=${si[this.size]}> ${this.label} </wui-text>
      </button>
    `}};me.styles=[k,F,vo];ze([p()],me.prototype,"icon",void 0);ze([p()],me.prototype,"size",void 0);ze([p()],me.prototype,"label",void 0);ze([p({type:Boolean})],me.prototype,"active",void 0);me=ze([h("wui-tab-item")],me);a();var $o=C`
  :host {
    display: inline-flex;
    align-items: center;
    background-color: ${({tokens:t})=>t.theme.foregroundSecondary};
    border-radius: ${({borderRadius:t})=>t[32]};
    padding: ${({spacing:t})=>t["01"]};
    box-sizing: border-box;
  }

  :host([data-size='sm']) {
    height: 26px;
  }

  :host([data-size='md']) {
    height: 36px;
  }
`;var qe=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},ge=class extends g{constructor(){super(...arguments),this.tabs=[],this.onTabChange=()=>null,this.size="md",this.activeTab=0}render(){return this.dataset.size=this.size,this.tabs.map((e,o)=>{let r=o===this.activeTab;return u`
        <wui-tab-item
          @click=${()=>this.onTabClick(o)}
          icon=${e.icon}
          size=${this.size}
          label=${e.label}
          ?active=${r}
          data-active=${r}
          data-testid="tab-${e.label?.toLowerCase()}"
        ></wui-tab-item>
      `})}onTabClick(e){this.activeTab=e,this.onTabChange(e)}};ge.styles=[k,F,$o];qe([p({type:Array})],ge.prototype,"tabs",void 0);qe([p()],ge.prototype,"onTabChange",void 0);qe([p()],ge.prototype,"size",void 0);qe([f()],ge.prototype,"activeTab",void 0);ge=qe([h("wui-tabs")],ge);var Bt=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},st=class extends g{constructor(){super(...arguments),this.platformTabs=[],this.unsubscribe=[],this.platforms=[],this.onSelectPlatfrom=void 0}disconnectCallback(){this.unsubscribe.forEach(e=>e())}render(){let e=this.generateTabs();return u`
      <wui-flex justifyContent="center" .padding=${["0","0","4","0"]}>
        <wui-tabs .tabs=${e} .onTabChange=${this.onTabChange.bind(this)}></wui-tabs>
      </wui-flex>
    `}generateTabs(){let e=this.platforms.map(o=>o==="browser"?{label:"Browser",icon:"extension",platform:"browser"}:o==="mobile"?{label:"Mobile",icon:"mobile",platform:"mobile"}:o==="qrcode"?{label:"Mobile",icon:"mobile",platform:"qrcode"}:o==="web"?{label:"Webapp",icon:"browser",platform:"web"}:o==="desktop"?{label:"Desktop",icon:"desktop",platform:"desktop"}:{label:"Browser",icon:"extension",platform:"unsupported"});return this.platformTabs=e.map(({platform:o})=>o),e}onTabChange(e){let o=this.platformTabs[e];o&&this.onSelectPlatfrom?.(o)}};Bt([p({type:Array})],st.prototype,"platforms",void 0);Bt([p()],st.prototype,"onSelectPlatfrom",void 0);st=Bt([h("w3m-connecting-header")],st);a();a();a();a();a();a();var Eo=C`
  :host {
    display: block;
    width: 100px;
    height: 100px;
  }

  svg {
    width: 100px;
    height: 100px;
  }

  rect {
    fill: none;
    stroke: ${t=>t.colors.accent100};
    stroke-width: 3px;
    stroke-linecap: round;
    animation: dash 1s linear infinite;
  }

  @keyframes dash {
    to {
      stroke-dashoffset: 0px;
    }
  }
`;var Ro=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},lt=class extends g{constructor(){super(...arguments),this.radius=36}render(){return this.svgLoaderTemplate()}svgLoaderTemplate(){let e=this.radius>50?50:this.radius,r=36-e,n=116+r,i=245+r,s=360+r*1.75;return u`
      <svg viewBox="0 0 110 110" width="110" height="110">
        <rect
          x="2"
          y="2"
          width="106"
          height="106"
          rx=${e}
          stroke-dasharray="${n} ${i}"
          stroke-dashoffset=${s}
        />
      </svg>
    `}};lt.styles=[k,Eo];Ro([p({type:Number})],lt.prototype,"radius",void 0);lt=Ro([h("wui-loading-thumbnail")],lt);a();a();a();a();var _o=C`
  wui-flex {
    width: 100%;
    height: 52px;
    box-sizing: border-box;
    background-color: ${({tokens:t})=>t.theme.foregroundPrimary};
    border-radius: ${({borderRadius:t})=>t[5]};
    padding-left: ${({spacing:t})=>t[3]};
    padding-right: ${({spacing:t})=>t[3]};
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: ${({spacing:t})=>t[6]};
  }

  wui-text {
    color: ${({tokens:t})=>t.theme.textSecondary};
  }

  wui-icon {
    width: 12px;
    height: 12px;
  }
`;var at=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},Ie=class extends g{constructor(){super(...arguments),this.disabled=!1,this.label="",this.buttonLabel=""}render(){return u`
      <wui-flex justifyContent="space-between" alignItems="center">
        <wui-text variant="lg-regular" color="inherit">${this.label}</wui-text>
        <wui-button variant="accent-secondary" size="sm">
          ${this.buttonLabel}
          <wui-icon name="chevronRight" color="inherit" size="inherit" slot="iconRight"></wui-icon>
        </wui-button>
      </wui-flex>
    `}};Ie.styles=[k,F,_o];at([p({type:Boolean})],Ie.prototype,"disabled",void 0);at([p()],Ie.prototype,"label",void 0);at([p()],Ie.prototype,"buttonLabel",void 0);Ie=at([h("wui-cta-button")],Ie);a();var So=C`
  :host {
    display: block;
    padding: 0 ${({spacing:t})=>t[5]} ${({spacing:t})=>t[5]};
  }
`;var Ao=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},ct=class extends g{constructor(){super(...arguments),this.wallet=void 0}render(){if(!this.wallet)return this.style.display="none",null;let{name:e,app_store:o,play_store:r,chrome_store:n,homepage:i}=this.wallet,s=x.isMobile(),l=x.isIos(),c=x.isAndroid(),m=[o,r,i,n].filter(Boolean).length>1,w=Z.getTruncateString({string:e,charsStart:12,charsEnd:0,truncate:"end"});return m&&!s?u`
        <wui-cta-button
          label=${`Don't have ${w}?`}
          buttonLabel="Get"
          @click=${()=>b.push("Downloads",{wallet:this.wallet})}
        ></wui-cta-button>
      `:!m&&i?u`
        <wui-cta-button
          label=${`Don't have ${w}?`}
          buttonLabel="Get"
          @click=${this.onHomePage.bind(this)}
        ></wui-cta-button>
      `:o&&l?u`
        <wui-cta-button
          label=${`Don't have ${w}?`}
          buttonLabel="Get"
          @click=${this.onAppStore.bind(this)}
        ></wui-cta-button>
      `:r&&c?u`
        <wui-cta-button
          label=${`Don't have ${w}?`}
          buttonLabel="Get"
          @click=${this.onPlayStore.bind(this)}
        ></wui-cta-button>
      `:(this.style.display="none",null)}onAppStore(){this.wallet?.app_store&&x.openHref(this.wallet.app_store,"_blank")}onPlayStore(){this.wallet?.play_store&&x.openHref(this.wallet.play_store,"_blank")}onHomePage(){this.wallet?.homepage&&x.openHref(this.wallet.homepage,"_blank")}};ct.styles=[So];Ao([p({type:Object})],ct.prototype,"wallet",void 0);ct=Ao([h("w3m-mobile-download-links")],ct);a();var To=C`
  @keyframes shake {
    0% {
      transform: translateX(0);
    }
    25% {
      transform: translateX(3px);
    }
    50% {
      transform: translateX(-3px);
    }
    75% {
      transform: translateX(3px);
    }
    100% {
      transform: translateX(0);
    }
  }

  wui-flex:first-child:not(:only-child) {
    position: relative;
  }

  wui-wallet-image {
    width: 56px;
    height: 56px;
  }

  wui-loading-thumbnail {
    position: absolute;
  }

  wui-icon-box {
    position: absolute;
    right: calc(${({spacing:t})=>t[1]} * -1);
    bottom: calc(${({spacing:t})=>t[1]} * -1);
    opacity: 0;
    transform: scale(0.5);
    transition-property: opacity, transform;
    transition-duration: ${({durations:t})=>t.lg};
    transition-timing-function: ${({easings:t})=>t["ease-out-power-2"]};
    will-change: opacity, transform;
  }

  wui-text[align='center'] {
    width: 100%;
    padding: 0px ${({spacing:t})=>t[4]};
  }

  [data-error='true'] wui-icon-box {
    opacity: 1;
    transform: scale(1);
  }

  [data-error='true'] > wui-flex:first-child {
    animation: shake 250ms ${({easings:t})=>t["ease-out-power-2"]} both;
  }

  [data-retry='false'] wui-link {
    display: none;
  }

  [data-retry='true'] wui-link {
    display: block;
    opacity: 1;
  }

  w3m-mobile-download-links {
    padding: 0px;
    width: 100%;
  }
`;var ee=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},W=class extends g{constructor(){super(),this.wallet=b.state.data?.wallet,this.connector=b.state.data?.connector,this.timeout=void 0,this.secondaryBtnIcon="refresh",this.onConnect=void 0,this.onRender=void 0,this.onAutoConnect=void 0,this.isWalletConnect=!0,this.unsubscribe=[],this.imageSrc=K.getConnectorImage(this.connector)??K.getWalletImage(this.wallet),this.name=this.wallet?.name??this.connector?.name??"Wallet",this.isRetrying=!1,this.uri=y.state.wcUri,this.error=y.state.wcError,this.ready=!1,this.showRetry=!1,this.label=void 0,this.secondaryBtnLabel="Try again",this.secondaryLabel="Accept connection request in the wallet",this.isLoading=!1,this.isMobile=!1,this.onRetry=void 0,this.unsubscribe.push(y.subscribeKey("wcUri",e=>{this.uri=e,this.isRetrying&&this.onRetry&&(this.isRetrying=!1,this.onConnect?.())}),y.subscribeKey("wcError",e=>this.error=e)),(x.isTelegram()||x.isSafari())&&x.isIos()&&y.state.wcUri&&this.onConnect?.()}firstUpdated(){this.onAutoConnect?.(),this.showRetry=!this.onAutoConnect}disconnectedCallback(){this.unsubscribe.forEach(e=>e()),y.setWcError(!1),clearTimeout(this.timeout)}render(){this.onRender?.(),this.onShowRetry();let e=this.error?"Connection can be declined if a previous request is still active":this.secondaryLabel,o="";return this.label?o=this.label:(o=`Continue in ${this.name}`,this.error&&(o="Connection declined")),u`
      <wui-flex
        data-error=${R(this.error)}
        data-retry=${this.showRetry}
        flexDirection="column"
        alignItems="center"
        .padding=${["10","5","5","5"]}
        gap="6"
      >
        <wui-flex gap="2" justifyContent="center" alignItems="center">
          <wui-wallet-image size="lg" imageSrc=${R(this.imageSrc)}></wui-wallet-image>

          ${this.error?null:this.loaderTemplate()}

          <wui-icon-box
            color="error"
            icon="close"
            size="sm"
            border
            borderColor="wui-color-bg-125"
          ></wui-icon-box>
        </wui-flex>

        <wui-flex flexDirection="column" alignItems="center" gap="6"> <wui-flex
          flexDirection="column"
          alignItems="center"
          gap="2"
          .padding=${["2","0","0","0"]}
        >
          <wui-text align="center" variant="lg-medium" color=${this.error?"error":"primary"}>
            ${o}
          </wui-text>
          <wui-text align="center" variant="lg-regular" color="secondary">${e}</wui-text>
        </wui-flex>

        ${this.secondaryBtnLabel?u`
                <wui-button
                  variant="neutral-secondary"
                  size="md"
                  ?disabled=${this.isRetrying||this.isLoading}
                  @click=${this.onTryAgain.bind(this)}
                  data-testid="w3m-connecting-widget-secondary-button"
                >
                  <wui-icon
                    color="inherit"
                    slot="iconLeft"
                    name=${this.secondaryBtnIcon}
                  ></wui-icon>
                  ${this.secondaryBtnLabel}
                </wui-button>
              `:null}
      </wui-flex>

      ${this.isWalletConnect?u`
              <wui-flex .padding=${["0","5","5","5"]} justifyContent="center">
                <wui-link
                  @click=${this.onCopyUri}
                  variant="secondary"
                  icon="copy"
                  data-testid="wui-link-copy"
                >
                  Copy link
                </wui-link>
              </wui-flex>
            `:null}

      <w3m-mobile-download-links .wallet=${this.wallet}></w3m-mobile-download-links></wui-flex>
      </wui-flex>
    `}onShowRetry(){this.error&&!this.showRetry&&(this.showRetry=!0,this.shadowRoot?.querySelector("wui-button")?.animate([{opacity:0},{opacity:1}],{fill:"forwards",easing:"ease"}))}onTryAgain(){y.setWcError(!1),this.onRetry?(this.isRetrying=!0,this.onRetry?.()):this.onConnect?.()}loaderTemplate(){let e=_e.state.themeVariables["--w3m-border-radius-master"],o=e?parseInt(e.replace("px",""),10):4;return u`<wui-loading-thumbnail radius=${o*9}></wui-loading-thumbnail>`}onCopyUri(){try{this.uri&&(x.copyToClopboard(this.uri),le.showSuccess("Link copied"))}catch{le.showError("Failed to copy")}}};W.styles=To;ee([f()],W.prototype,"isRetrying",void 0);ee([f()],W.prototype,"uri",void 0);ee([f()],W.prototype,"error",void 0);ee([f()],W.prototype,"ready",void 0);ee([f()],W.prototype,"showRetry",void 0);ee([f()],W.prototype,"label",void 0);ee([f()],W.prototype,"secondaryBtnLabel",void 0);ee([f()],W.prototype,"secondaryLabel",void 0);ee([f()],W.prototype,"isLoading",void 0);ee([p({type:Boolean})],W.prototype,"isMobile",void 0);ee([p()],W.prototype,"onRetry",void 0);var ai=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},Io=class extends W{constructor(){if(super(),!this.wallet)throw new Error("w3m-connecting-wc-browser: No wallet provided");this.onConnect=this.onConnectProxy.bind(this),this.onAutoConnect=this.onConnectProxy.bind(this),P.sendEvent({type:"track",event:"SELECT_WALLET",properties:{name:this.wallet.name,platform:"browser",displayIndex:this.wallet?.display_index,walletRank:this.wallet.order,view:b.state.view}})}async onConnectProxy(){try{this.error=!1;let{connectors:e}=z.state,o=e.find(r=>r.type==="ANNOUNCED"&&r.info?.rdns===this.wallet?.rdns||r.type==="INJECTED"||r.name===this.wallet?.name);if(o)await y.connectExternal(o,o.chain);else throw new Error("w3m-connecting-wc-browser: No connector found");it.close()}catch(e){e instanceof rt&&e.originalName===tt.PROVIDER_RPC_ERROR_NAME.USER_REJECTED_REQUEST?P.sendEvent({type:"track",event:"USER_REJECTED",properties:{message:e.message}}):P.sendEvent({type:"track",event:"CONNECT_ERROR",properties:{message:e?.message??"Unknown"}}),this.error=!0}}};Io=ai([h("w3m-connecting-wc-browser")],Io);a();var ci=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},Wo=class extends W{constructor(){if(super(),!this.wallet)throw new Error("w3m-connecting-wc-desktop: No wallet provided");this.onConnect=this.onConnectProxy.bind(this),this.onRender=this.onRenderProxy.bind(this),P.sendEvent({type:"track",event:"SELECT_WALLET",properties:{name:this.wallet.name,platform:"desktop",displayIndex:this.wallet?.display_index,walletRank:this.wallet.order,view:b.state.view}})}onRenderProxy(){!this.ready&&this.uri&&(this.ready=!0,this.onConnect?.())}onConnectProxy(){if(this.wallet?.desktop_link&&this.uri)try{this.error=!1;let{desktop_link:e,name:o}=this.wallet,{redirect:r,href:n}=x.formatNativeUrl(e,this.uri);y.setWcLinking({name:o,href:n}),y.setRecentWallet(this.wallet),x.openHref(r,"_blank")}catch{this.error=!0}}};Wo=ci([h("w3m-connecting-wc-desktop")],Wo);a();var We=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},we=class extends W{constructor(){if(super(),this.btnLabelTimeout=void 0,this.redirectDeeplink=void 0,this.redirectUniversalLink=void 0,this.target=void 0,this.preferUniversalLinks=N.state.experimental_preferUniversalLinks,this.isLoading=!0,this.onConnect=()=>{fo.onConnectMobile(this.wallet)},!this.wallet)throw new Error("w3m-connecting-wc-mobile: No wallet provided");this.secondaryBtnLabel="Open",this.secondaryLabel=ot.CONNECT_LABELS.MOBILE,this.secondaryBtnIcon="externalLink",this.onHandleURI(),this.unsubscribe.push(y.subscribeKey("wcUri",()=>{this.onHandleURI()})),P.sendEvent({type:"track",event:"SELECT_WALLET",properties:{name:this.wallet.name,platform:"mobile",displayIndex:this.wallet?.display_index,walletRank:this.wallet.order,view:b.state.view}})}disconnectedCallback(){super.disconnectedCallback(),clearTimeout(this.btnLabelTimeout)}onHandleURI(){this.isLoading=!this.uri,!this.ready&&this.uri&&(this.ready=!0,this.onConnect?.())}onTryAgain(){y.setWcError(!1),this.onConnect?.()}};We([f()],we.prototype,"redirectDeeplink",void 0);We([f()],we.prototype,"redirectUniversalLink",void 0);We([f()],we.prototype,"target",void 0);We([f()],we.prototype,"preferUniversalLinks",void 0);We([f()],we.prototype,"isLoading",void 0);we=We([h("w3m-connecting-wc-mobile")],we);a();a();a();a();var kr=ni(Pr(),1);var nn=.1,Br=2.5,ne=7;function io(t,e,o){return t===e?!1:(t-e<0?e-t:t-e)<=o+nn}function sn(t,e){let o=Array.prototype.slice.call(kr.default.create(t,{errorCorrectionLevel:e}).modules.data,0),r=Math.sqrt(o.length);return o.reduce((n,i,s)=>(s%r===0?n.push([i]):n[n.length-1].push(i))&&n,[])}var Nr={generate({uri:t,size:e,logoSize:o,padding:r=8,dotColor:n="var(--apkt-colors-black)"}){let s=[],l=sn(t,"Q"),c=(e-2*r)/l.length,m=[{x:0,y:0},{x:1,y:0},{x:0,y:1}];m.forEach(({x:$,y:E})=>{let M=(l.length-ne)*c*$+r,A=(l.length-ne)*c*E+r,U=.45;for(let B=0;B<m.length;B+=1){let O=c*(ne-B*2);s.push(Se`
            <rect
              fill=${B===2?"var(--apkt-colors-black)":"var(--apkt-colors-white)"}
              width=${B===0?O-10:O}
              rx= ${B===0?(O-10)*U:O*U}
              ry= ${B===0?(O-10)*U:O*U}
              stroke=${n}
              stroke-width=${B===0?10:0}
              height=${B===0?O-10:O}
              x= ${B===0?A+c*B+10/2:A+c*B}
              y= ${B===0?M+c*B+10/2:M+c*B}
            />
          `)}});let w=Math.floor((o+25)/c),L=l.length/2-w/2,v=l.length/2+w/2-1,q=[];l.forEach(($,E)=>{$.forEach((M,A)=>{if(l[E][A]&&!(E<ne&&A<ne||E>l.length-(ne+1)&&A<ne||E<ne&&A>l.length-(ne+1))&&!(E>L&&E<v&&A>L&&A<v)){let U=E*c+c/2+r,B=A*c+c/2+r;q.push([U,B])}})});let j={};return q.forEach(([$,E])=>{j[$]?j[$]?.push(E):j[$]=[E]}),Object.entries(j).map(([$,E])=>{let M=E.filter(A=>E.every(U=>!io(A,U,c)));return[Number($),M]}).forEach(([$,E])=>{E.forEach(M=>{s.push(Se`<circle cx=${$} cy=${M} fill=${n} r=${c/Br} />`)})}),Object.entries(j).filter(([$,E])=>E.length>1).map(([$,E])=>{let M=E.filter(A=>E.some(U=>io(A,U,c)));return[Number($),M]}).map(([$,E])=>{E.sort((A,U)=>A<U?-1:1);let M=[];for(let A of E){let U=M.find(B=>B.some(O=>io(A,O,c)));U?U.push(A):M.push([A])}return[$,M.map(A=>[A[0],A[A.length-1]])]}).forEach(([$,E])=>{E.forEach(([M,A])=>{s.push(Se`
              <line
                x1=${$}
                x2=${$}
                y1=${M}
                y2=${A}
                stroke=${n}
                stroke-width=${c/(Br/2)}
                stroke-linecap="round"
              />
            `)})}),s}};a();var Or=C`
  :host {
    position: relative;
    user-select: none;
    display: block;
    overflow: hidden;
    aspect-ratio: 1 / 1;
    width: 100%;
    height: 100%;
    background-color: ${({colors:t})=>t.white};
    border: 1px solid ${({tokens:t})=>t.theme.borderPrimary};
  }

  :host {
    border-radius: ${({borderRadius:t})=>t[4]};
    display: flex;
    align-items: center;
    justify-content: center;
  }

  :host([data-clear='true']) > wui-icon {
    display: none;
  }

  svg:first-child,
  wui-image,
  wui-icon {
    position: absolute;
    top: 50%;
    left: 50%;
    transform: translateY(-50%) translateX(-50%);
    background-color: ${({tokens:t})=>t.theme.backgroundPrimary};
    box-shadow: inset 0 0 0 4px ${({tokens:t})=>t.theme.backgroundPrimary};
    border-radius: ${({borderRadius:t})=>t[6]};
  }

  wui-image {
    width: 25%;
    height: 25%;
    border-radius: ${({borderRadius:t})=>t[2]};
  }

  wui-icon {
    width: 100%;
    height: 100%;
    color: #3396ff !important;
    transform: translateY(-50%) translateX(-50%) scale(0.25);
  }

  wui-icon > svg {
    width: inherit;
    height: inherit;
  }
`;var he=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},te=class extends g{constructor(){super(...arguments),this.uri="",this.size=500,this.theme="dark",this.imageSrc=void 0,this.alt=void 0,this.arenaClear=void 0,this.farcaster=void 0}render(){return this.dataset.theme=this.theme,this.dataset.clear=String(this.arenaClear),u`<wui-flex
      alignItems="center"
      justifyContent="center"
      class="wui-qr-code"
      direction="column"
      gap="4"
      width="100%"
      style="height: 100%"
    >
      ${this.templateVisual()} ${this.templateSvg()}
    </wui-flex>`}templateSvg(){return Se`
      <svg viewBox="0 0 ${this.size} ${this.size}" width="100%" height="100%">
        ${Nr.generate({uri:this.uri,size:this.size,logoSize:this.arenaClear?0:this.size/4})}
      </svg>
    `}templateVisual(){return this.imageSrc?u`<wui-image src=${this.imageSrc} alt=${this.alt??"logo"}></wui-image>`:this.farcaster?u`<wui-icon
        class="farcaster"
        size="inherit"
        color="inherit"
        name="farcaster"
      ></wui-icon>`:u`<wui-icon size="inherit" color="inherit" name="walletConnect"></wui-icon>`}};te.styles=[k,Or];he([p()],te.prototype,"uri",void 0);he([p({type:Number})],te.prototype,"size",void 0);he([p()],te.prototype,"theme",void 0);he([p()],te.prototype,"imageSrc",void 0);he([p()],te.prototype,"alt",void 0);he([p({type:Boolean})],te.prototype,"arenaClear",void 0);he([p({type:Boolean})],te.prototype,"farcaster",void 0);te=he([h("wui-qr-code")],te);a();var Dr=C`
  wui-shimmer {
    width: 100%;
    aspect-ratio: 1 / 1;
    border-radius: ${({borderRadius:t})=>t[4]};
  }

  wui-qr-code {
    opacity: 0;
    animation-duration: ${({durations:t})=>t.xl};
    animation-timing-function: ${({easings:t})=>t["ease-out-power-2"]};
    animation-name: fade-in;
    animation-fill-mode: forwards;
  }

  @keyframes fade-in {
    from {
      opacity: 0;
    }
    to {
      opacity: 1;
    }
  }
`;var Mr=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},Ct=class extends W{constructor(){super(),this.basic=!1}firstUpdated(){this.basic||P.sendEvent({type:"track",event:"SELECT_WALLET",properties:{name:this.wallet?.name??"WalletConnect",platform:"qrcode",displayIndex:this.wallet?.display_index,walletRank:this.wallet?.order,view:b.state.view}})}disconnectedCallback(){super.disconnectedCallback(),this.unsubscribe?.forEach(e=>e())}render(){return this.onRenderProxy(),u`
      <wui-flex
        flexDirection="column"
        alignItems="center"
        .padding=${["0","5","5","5"]}
        gap="5"
      >
        <wui-shimmer width="100%"> ${this.qrCodeTemplate()} </wui-shimmer>
        <wui-text variant="lg-medium" color="primary"> Scan this QR Code with your phone </wui-text>
        ${this.copyTemplate()}
      </wui-flex>
      <w3m-mobile-download-links .wallet=${this.wallet}></w3m-mobile-download-links>
    `}onRenderProxy(){!this.ready&&this.uri&&(this.ready=!0)}qrCodeTemplate(){if(!this.uri||!this.ready)return null;let e=this.wallet?this.wallet.name:void 0;y.setWcLinking(void 0),y.setRecentWallet(this.wallet);let o=_e.state.themeVariables["--apkt-qr-color"]??_e.state.themeVariables["--w3m-qr-color"];return u` <wui-qr-code
      theme=${_e.state.themeMode}
      uri=${this.uri}
      imageSrc=${R(K.getWalletImage(this.wallet))}
      color=${R(o)}
      alt=${R(e)}
      data-testid="wui-qr-code"
    ></wui-qr-code>`}copyTemplate(){let e=!this.uri||!this.ready;return u`<wui-button
      .disabled=${e}
      @click=${this.onCopyUri}
      variant="neutral-secondary"
      size="sm"
      data-testid="copy-wc2-uri"
    >
      Copy link
      <wui-icon size="sm" color="inherit" name="copy" slot="iconRight"></wui-icon>
    </wui-button>`}};Ct.styles=Dr;Mr([p({type:Boolean})],Ct.prototype,"basic",void 0);Ct=Mr([h("w3m-connecting-wc-qrcode")],Ct);a();var ln=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},Ur=class extends g{constructor(){if(super(),this.wallet=b.state.data?.wallet,!this.wallet)throw new Error("w3m-connecting-wc-unsupported: No wallet provided");P.sendEvent({type:"track",event:"SELECT_WALLET",properties:{name:this.wallet.name,platform:"browser",displayIndex:this.wallet?.display_index,walletRank:this.wallet?.order,view:b.state.view}})}render(){return u`
      <wui-flex
        flexDirection="column"
        alignItems="center"
        .padding=${["10","5","5","5"]}
        gap="5"
      >
        <wui-wallet-image
          size="lg"
          imageSrc=${R(K.getWalletImage(this.wallet))}
        ></wui-wallet-image>

        <wui-text variant="md-regular" color="primary">Not Detected</wui-text>
      </wui-flex>

      <w3m-mobile-download-links .wallet=${this.wallet}></w3m-mobile-download-links>
    `}};Ur=ln([h("w3m-connecting-wc-unsupported")],Ur);a();var jr=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},no=class extends W{constructor(){if(super(),this.isLoading=!0,!this.wallet)throw new Error("w3m-connecting-wc-web: No wallet provided");this.onConnect=this.onConnectProxy.bind(this),this.secondaryBtnLabel="Open",this.secondaryLabel=ot.CONNECT_LABELS.MOBILE,this.secondaryBtnIcon="externalLink",this.updateLoadingState(),this.unsubscribe.push(y.subscribeKey("wcUri",()=>{this.updateLoadingState()})),P.sendEvent({type:"track",event:"SELECT_WALLET",properties:{name:this.wallet.name,platform:"web",displayIndex:this.wallet?.display_index,walletRank:this.wallet?.order,view:b.state.view}})}updateLoadingState(){this.isLoading=!this.uri}onConnectProxy(){if(this.wallet?.webapp_link&&this.uri)try{this.error=!1;let{webapp_link:e,name:o}=this.wallet,{redirect:r,href:n}=x.formatUniversalUrl(e,this.uri);y.setWcLinking({name:o,href:n}),y.setRecentWallet(this.wallet),x.openHref(r,"_blank")}catch{this.error=!0}}};jr([f()],no.prototype,"isLoading",void 0);no=jr([h("w3m-connecting-wc-web")],no);a();var zr=C`
  :host([data-mobile-fullscreen='true']) {
    height: 100%;
    display: flex;
    flex-direction: column;
  }

  :host([data-mobile-fullscreen='true']) wui-ux-by-reown {
    margin-top: auto;
  }
`;var ve=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},se=class extends g{constructor(){super(),this.wallet=b.state.data?.wallet,this.unsubscribe=[],this.platform=void 0,this.platforms=[],this.isSiwxEnabled=!!N.state.siwx,this.remoteFeatures=N.state.remoteFeatures,this.displayBranding=!0,this.basic=!1,this.determinePlatforms(),this.initializeConnection(),this.unsubscribe.push(N.subscribeKey("remoteFeatures",e=>this.remoteFeatures=e))}disconnectedCallback(){this.unsubscribe.forEach(e=>e())}render(){return N.state.enableMobileFullScreen&&this.setAttribute("data-mobile-fullscreen","true"),u`
      ${this.headerTemplate()}
      <div class="platform-container">${this.platformTemplate()}</div>
      ${this.reownBrandingTemplate()}
    `}reownBrandingTemplate(){return!this.remoteFeatures?.reownBranding||!this.displayBranding?null:u`<wui-ux-by-reown></wui-ux-by-reown>`}async initializeConnection(e=!1){if(!(this.platform==="browser"||N.state.manualWCControl&&!e))try{let{wcPairingExpiry:o,status:r}=y.state,{redirectView:n}=b.state.data??{};if(e||N.state.enableEmbedded||x.isPairingExpired(o)||r==="connecting"){let i=y.getConnections(G.state.activeChain),s=this.remoteFeatures?.multiWallet,l=i.length>0;await y.connectWalletConnect({cache:"never"}),this.isSiwxEnabled||(l&&s?(b.replace("ProfileWallets"),le.showSuccess("New Wallet Added")):n?b.replace(n):it.close())}}catch(o){if(o instanceof Error&&o.message.includes("An error occurred when attempting to switch chain")&&!N.state.enableNetworkSwitch&&G.state.activeChain){G.setActiveCaipNetwork(wo.getUnsupportedNetwork(`${G.state.activeChain}:${G.state.activeCaipNetwork?.id}`)),G.showUnsupportedChainUI();return}o instanceof rt&&o.originalName===tt.PROVIDER_RPC_ERROR_NAME.USER_REJECTED_REQUEST?P.sendEvent({type:"track",event:"USER_REJECTED",properties:{message:o.message}}):P.sendEvent({type:"track",event:"CONNECT_ERROR",properties:{message:o?.message??"Unknown"}}),y.setWcError(!0),le.showError(o.message??"Connection error"),y.resetWcConnection(),b.goBack()}}determinePlatforms(){if(!this.wallet){this.platforms.push("qrcode"),this.platform="qrcode";return}if(this.platform)return;let{mobile_link:e,desktop_link:o,webapp_link:r,injected:n,rdns:i}=this.wallet,s=n?.map(({injected_id:$})=>$).filter(Boolean),l=[...i?[i]:s??[]],c=N.state.isUniversalProvider?!1:l.length,m=e,w=r,L=y.checkInstalled(l),v=c&&L,q=o&&!x.isMobile();v&&!G.state.noAdapters&&this.platforms.push("browser"),m&&this.platforms.push(x.isMobile()?"mobile":"qrcode"),w&&this.platforms.push("web"),q&&this.platforms.push("desktop");let j=po.isCustomDeeplinkWallet(this.wallet.id,G.state.activeChain);!v&&c&&!G.state.noAdapters&&!j&&this.platforms.push("unsupported"),this.platform=this.platforms[0]}platformTemplate(){switch(this.platform){case"browser":return u`<w3m-connecting-wc-browser></w3m-connecting-wc-browser>`;case"web":return u`<w3m-connecting-wc-web></w3m-connecting-wc-web>`;case"desktop":return u`
          <w3m-connecting-wc-desktop .onRetry=${()=>this.initializeConnection(!0)}>
          </w3m-connecting-wc-desktop>
        `;case"mobile":return u`
          <w3m-connecting-wc-mobile isMobile .onRetry=${()=>this.initializeConnection(!0)}>
          </w3m-connecting-wc-mobile>
        `;case"qrcode":return u`<w3m-connecting-wc-qrcode ?basic=${this.basic}></w3m-connecting-wc-qrcode>`;default:return u`<w3m-connecting-wc-unsupported></w3m-connecting-wc-unsupported>`}}headerTemplate(){return this.platforms.length>1?u`
      <w3m-connecting-header
        .platforms=${this.platforms}
        .onSelectPlatfrom=${this.onSelectPlatform.bind(this)}
      >
      </w3m-connecting-header>
    `:null}async onSelectPlatform(e){let o=this.shadowRoot?.querySelector("div");o&&(await o.animate([{opacity:1},{opacity:0}],{duration:200,fill:"forwards",easing:"ease"}).finished,this.platform=e,o.animate([{opacity:0},{opacity:1}],{duration:200,fill:"forwards",easing:"ease"}))}};se.styles=zr;ve([f()],se.prototype,"platform",void 0);ve([f()],se.prototype,"platforms",void 0);ve([f()],se.prototype,"isSiwxEnabled",void 0);ve([f()],se.prototype,"remoteFeatures",void 0);ve([p({type:Boolean})],se.prototype,"displayBranding",void 0);ve([p({type:Boolean})],se.prototype,"basic",void 0);se=ve([h("w3m-connecting-wc-view")],se);var so=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},vt=class extends g{constructor(){super(),this.unsubscribe=[],this.isMobile=x.isMobile(),this.remoteFeatures=N.state.remoteFeatures,this.unsubscribe.push(N.subscribeKey("remoteFeatures",e=>this.remoteFeatures=e))}disconnectedCallback(){this.unsubscribe.forEach(e=>e())}render(){if(this.isMobile){let{featured:e,recommended:o}=T.state,{customWallets:r}=N.state,n=uo.getRecentWallets(),i=e.length||o.length||r?.length||n.length;return u`<wui-flex flexDirection="column" gap="2" .margin=${["1","3","3","3"]}>
        ${i?u`<w3m-connector-list></w3m-connector-list>`:null}
        <w3m-all-wallets-widget></w3m-all-wallets-widget>
      </wui-flex>`}return u`<wui-flex flexDirection="column" .padding=${["0","0","4","0"]}>
        <w3m-connecting-wc-view ?basic=${!0} .displayBranding=${!1}></w3m-connecting-wc-view>
        <wui-flex flexDirection="column" .padding=${["0","3","0","3"]}>
          <w3m-all-wallets-widget></w3m-all-wallets-widget>
        </wui-flex>
      </wui-flex>
      ${this.reownBrandingTemplate()} `}reownBrandingTemplate(){return this.remoteFeatures?.reownBranding?u` <wui-flex flexDirection="column" .padding=${["1","0","1","0"]}>
      <wui-ux-by-reown></wui-ux-by-reown>
    </wui-flex>`:null}};so([f()],vt.prototype,"isMobile",void 0);so([f()],vt.prototype,"remoteFeatures",void 0);vt=so([h("w3m-connecting-wc-basic-view")],vt);a();a();a();a();a();a();a();a();var{I:Mu}=mo;var qr=t=>t.strings===void 0;var Xe=(t,e)=>{let o=t._$AN;if(o===void 0)return!1;for(let r of o)r._$AO?.(e,!1),Xe(r,e);return!0},$t=t=>{let e,o;do{if((e=t._$AM)===void 0)break;o=e._$AN,o.delete(t),t=e}while(o?.size===0)},Fr=t=>{for(let e;e=t._$AM;t=e){let o=e._$AN;if(o===void 0)e._$AN=o=new Set;else if(o.has(t))break;o.add(t),un(e)}};function an(t){this._$AN!==void 0?($t(this),this._$AM=t,Fr(this)):this._$AM=t}function cn(t,e=!1,o=0){let r=this._$AH,n=this._$AN;if(n!==void 0&&n.size!==0)if(e)if(Array.isArray(r))for(let i=o;i<r.length;i++)Xe(r[i],!1),$t(r[i]);else r!=null&&(Xe(r,!1),$t(r));else Xe(this,t)}var un=t=>{t.type==bo.CHILD&&(t._$AP??(t._$AP=cn),t._$AQ??(t._$AQ=an))},Et=class extends yo{constructor(){super(...arguments),this._$AN=void 0}_$AT(e,o,r){super._$AT(e,o,r),Fr(this),this.isConnected=e._$AU}_$AO(e,o=!0){e!==this.isConnected&&(this.isConnected=e,e?this.reconnected?.():this.disconnected?.()),o&&(Xe(this,e),$t(this))}setValue(e){if(qr(this._$Ct))this._$Ct._$AI(e,this);else{let o=[...this._$Ct._$AH];o[this._$Ci]=e,this._$Ct._$AI(o,this,0)}}disconnected(){}reconnected(){}};var Oe=()=>new ao,ao=class{},lo=new WeakMap,De=Pt(class extends Et{render(t){return Lt}update(t,[e]){let o=e!==this.G;return o&&this.rt(void 0),(o||this.lt!==this.ct)&&(this.G=e,this.ht=t.options?.host,this.rt(this.ct=t.element)),Lt}rt(t){if(this.G!==void 0)if(this.isConnected||(t=void 0),typeof this.G=="function"){let e=this.ht??globalThis,o=lo.get(e);o===void 0&&(o=new WeakMap,lo.set(e,o)),o.get(this.G)!==void 0&&this.G.call(this.ht,void 0),o.set(this.G,t),t!==void 0&&this.G.call(this.ht,t)}else this.G.value=t}get lt(){return typeof this.G=="function"?lo.get(this.ht??globalThis)?.get(this.G):this.G?.value}disconnected(){this.lt===this.ct&&this.rt(void 0)}reconnected(){this.rt(this.ct)}});a();var Vr=C`
  :host {
    display: flex;
    align-items: center;
    justify-content: center;
  }

  label {
    position: relative;
    display: inline-block;
    user-select: none;
    transition:
      background-color ${({durations:t})=>t.lg}
        ${({easings:t})=>t["ease-out-power-2"]},
      color ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-2"]},
      border ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-2"]},
      box-shadow ${({durations:t})=>t.lg}
        ${({easings:t})=>t["ease-out-power-2"]},
      width ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-2"]},
      height ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-2"]},
      transform ${({durations:t})=>t.lg}
        ${({easings:t})=>t["ease-out-power-2"]},
      opacity ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-2"]};
    will-change: background-color, color, border, box-shadow, width, height, transform, opacity;
  }

  input {
    width: 0;
    height: 0;
    opacity: 0;
  }

  span {
    position: absolute;
    cursor: pointer;
    top: 0;
    left: 0;
    right: 0;
    bottom: 0;
    background-color: ${({colors:t})=>t.neutrals300};
    border-radius: ${({borderRadius:t})=>t.round};
    border: 1px solid transparent;
    will-change: border;
    transition:
      background-color ${({durations:t})=>t.lg}
        ${({easings:t})=>t["ease-out-power-2"]},
      color ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-2"]},
      border ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-2"]},
      box-shadow ${({durations:t})=>t.lg}
        ${({easings:t})=>t["ease-out-power-2"]},
      width ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-2"]},
      height ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-2"]},
      transform ${({durations:t})=>t.lg}
        ${({easings:t})=>t["ease-out-power-2"]},
      opacity ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-2"]};
    will-change: background-color, color, border, box-shadow, width, height, transform, opacity;
  }

  span:before {
    content: '';
    position: absolute;
    background-color: ${({colors:t})=>t.white};
    border-radius: 50%;
  }

  /* -- Sizes --------------------------------------------------------- */
  label[data-size='lg'] {
    width: 48px;
    height: 32px;
  }

  label[data-size='md'] {
    width: 40px;
    height: 28px;
  }

  label[data-size='sm'] {
    width: 32px;
    height: 22px;
  }

  label[data-size='lg'] > span:before {
    height: 24px;
    width: 24px;
    left: 4px;
    top: 3px;
  }

  label[data-size='md'] > span:before {
    height: 20px;
    width: 20px;
    left: 4px;
    top: 3px;
  }

  label[data-size='sm'] > span:before {
    height: 16px;
    width: 16px;
    left: 3px;
    top: 2px;
  }

  /* -- Focus states --------------------------------------------------- */
  input:focus-visible:not(:checked) + span,
  input:focus:not(:checked) + span {
    border: 1px solid ${({tokens:t})=>t.core.iconAccentPrimary};
    background-color: ${({tokens:t})=>t.theme.textTertiary};
    box-shadow: 0px 0px 0px 4px rgba(9, 136, 240, 0.2);
  }

  input:focus-visible:checked + span,
  input:focus:checked + span {
    border: 1px solid ${({tokens:t})=>t.core.iconAccentPrimary};
    box-shadow: 0px 0px 0px 4px rgba(9, 136, 240, 0.2);
  }

  /* -- Checked states --------------------------------------------------- */
  input:checked + span {
    background-color: ${({tokens:t})=>t.core.iconAccentPrimary};
  }

  label[data-size='lg'] > input:checked + span:before {
    transform: translateX(calc(100% - 9px));
  }

  label[data-size='md'] > input:checked + span:before {
    transform: translateX(calc(100% - 9px));
  }

  label[data-size='sm'] > input:checked + span:before {
    transform: translateX(calc(100% - 7px));
  }

  /* -- Hover states ------------------------------------------------------- */
  label:hover > input:not(:checked):not(:disabled) + span {
    background-color: ${({colors:t})=>t.neutrals400};
  }

  label:hover > input:checked:not(:disabled) + span {
    background-color: ${({colors:t})=>t.accent080};
  }

  /* -- Disabled state --------------------------------------------------- */
  label:has(input:disabled) {
    pointer-events: none;
    user-select: none;
  }

  input:not(:checked):disabled + span {
    background-color: ${({colors:t})=>t.neutrals700};
  }

  input:checked:disabled + span {
    background-color: ${({colors:t})=>t.neutrals700};
  }

  input:not(:checked):disabled + span::before {
    background-color: ${({colors:t})=>t.neutrals400};
  }

  input:checked:disabled + span::before {
    background-color: ${({tokens:t})=>t.theme.textTertiary};
  }
`;var Rt=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},Me=class extends g{constructor(){super(...arguments),this.inputElementRef=Oe(),this.checked=!1,this.disabled=!1,this.size="md"}render(){return u`
      <label data-size=${this.size}>
        <input
          ${De(this.inputElementRef)}
          type="checkbox"
          ?checked=${this.checked}
          ?disabled=${this.disabled}
          @change=${this.dispatchChangeEvent.bind(this)}
        />
        <span></span>
      </label>
    `}dispatchChangeEvent(){this.dispatchEvent(new CustomEvent("switchChange",{detail:this.inputElementRef.value?.checked,bubbles:!0,composed:!0}))}};Me.styles=[k,F,Vr];Rt([p({type:Boolean})],Me.prototype,"checked",void 0);Rt([p({type:Boolean})],Me.prototype,"disabled",void 0);Rt([p()],Me.prototype,"size",void 0);Me=Rt([h("wui-toggle")],Me);a();var Hr=C`
  :host {
    height: auto;
  }

  :host > wui-flex {
    height: 100%;
    display: flex;
    align-items: center;
    justify-content: center;
    column-gap: ${({spacing:t})=>t[2]};
    padding: ${({spacing:t})=>t[2]} ${({spacing:t})=>t[3]};
    background-color: ${({tokens:t})=>t.theme.foregroundPrimary};
    border-radius: ${({borderRadius:t})=>t[4]};
    box-shadow: inset 0 0 0 1px ${({tokens:t})=>t.theme.foregroundPrimary};
    transition: background-color ${({durations:t})=>t.lg}
      ${({easings:t})=>t["ease-out-power-2"]};
    will-change: background-color;
    cursor: pointer;
  }

  wui-switch {
    pointer-events: none;
  }
`;var Kr=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},_t=class extends g{constructor(){super(...arguments),this.checked=!1}render(){return u`
      <wui-flex>
        <wui-icon size="xl" name="walletConnectBrown"></wui-icon>
        <wui-toggle
          ?checked=${this.checked}
          size="sm"
          @switchChange=${this.handleToggleChange.bind(this)}
        ></wui-toggle>
      </wui-flex>
    `}handleToggleChange(e){e.stopPropagation(),this.checked=e.detail,this.dispatchSwitchEvent()}dispatchSwitchEvent(){this.dispatchEvent(new CustomEvent("certifiedSwitchChange",{detail:this.checked,bubbles:!0,composed:!0}))}};_t.styles=[k,F,Hr];Kr([p({type:Boolean})],_t.prototype,"checked",void 0);_t=Kr([h("wui-certified-switch")],_t);a();a();a();a();var Gr=C`
  :host {
    position: relative;
    width: 100%;
    display: inline-flex;
    flex-direction: column;
    gap: ${({spacing:t})=>t[3]};
    color: ${({tokens:t})=>t.theme.textPrimary};
    caret-color: ${({tokens:t})=>t.core.textAccentPrimary};
  }

  .wui-input-text-container {
    position: relative;
    display: flex;
  }

  input {
    width: 100%;
    border-radius: ${({borderRadius:t})=>t[4]};
    color: inherit;
    background: transparent;
    border: 1px solid ${({tokens:t})=>t.theme.borderPrimary};
    caret-color: ${({tokens:t})=>t.core.textAccentPrimary};
    padding: ${({spacing:t})=>t[3]} ${({spacing:t})=>t[3]}
      ${({spacing:t})=>t[3]} ${({spacing:t})=>t[10]};
    font-size: ${({textSize:t})=>t.large};
    line-height: ${({typography:t})=>t["lg-regular"].lineHeight};
    letter-spacing: ${({typography:t})=>t["lg-regular"].letterSpacing};
    font-weight: ${({fontWeight:t})=>t.regular};
    font-family: ${({fontFamily:t})=>t.regular};
  }

  input[data-size='lg'] {
    padding: ${({spacing:t})=>t[4]} ${({spacing:t})=>t[3]}
      ${({spacing:t})=>t[4]} ${({spacing:t})=>t[10]};
  }

  @media (hover: hover) and (pointer: fine) {
    input:hover:enabled {
      border: 1px solid ${({tokens:t})=>t.theme.borderSecondary};
    }
  }

  input:disabled {
    cursor: unset;
    border: 1px solid ${({tokens:t})=>t.theme.borderPrimary};
  }

  input::placeholder {
    color: ${({tokens:t})=>t.theme.textSecondary};
  }

  input:focus:enabled {
    border: 1px solid ${({tokens:t})=>t.theme.borderSecondary};
    background-color: ${({tokens:t})=>t.theme.foregroundPrimary};
    -webkit-box-shadow: 0px 0px 0px 4px ${({tokens:t})=>t.core.foregroundAccent040};
    -moz-box-shadow: 0px 0px 0px 4px ${({tokens:t})=>t.core.foregroundAccent040};
    box-shadow: 0px 0px 0px 4px ${({tokens:t})=>t.core.foregroundAccent040};
  }

  div.wui-input-text-container:has(input:disabled) {
    opacity: 0.5;
  }

  wui-icon.wui-input-text-left-icon {
    position: absolute;
    top: 50%;
    transform: translateY(-50%);
    pointer-events: none;
    left: ${({spacing:t})=>t[4]};
    color: ${({tokens:t})=>t.theme.iconDefault};
  }

  button.wui-input-text-submit-button {
    position: absolute;
    top: 50%;
    transform: translateY(-50%);
    right: ${({spacing:t})=>t[3]};
    width: 24px;
    height: 24px;
    border: none;
    background: transparent;
    border-radius: ${({borderRadius:t})=>t[2]};
    color: ${({tokens:t})=>t.core.textAccentPrimary};
  }

  button.wui-input-text-submit-button:disabled {
    opacity: 1;
  }

  button.wui-input-text-submit-button.loading wui-icon {
    animation: spin 1s linear infinite;
  }

  button.wui-input-text-submit-button:hover {
    background: ${({tokens:t})=>t.core.foregroundAccent010};
  }

  input:has(+ .wui-input-text-submit-button) {
    padding-right: ${({spacing:t})=>t[12]};
  }

  input[type='number'] {
    -moz-appearance: textfield;
  }

  input[type='search']::-webkit-search-decoration,
  input[type='search']::-webkit-search-cancel-button,
  input[type='search']::-webkit-search-results-button,
  input[type='search']::-webkit-search-results-decoration {
    -webkit-appearance: none;
  }

  /* -- Keyframes --------------------------------------------------- */
  @keyframes spin {
    from {
      transform: rotate(0deg);
    }
    to {
      transform: rotate(360deg);
    }
  }
`;var J=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},V=class extends g{constructor(){super(...arguments),this.inputElementRef=Oe(),this.disabled=!1,this.loading=!1,this.placeholder="",this.type="text",this.value="",this.size="md"}render(){return u` <div class="wui-input-text-container">
        ${this.templateLeftIcon()}
        <input
          data-size=${this.size}
          ${De(this.inputElementRef)}
          data-testid="wui-input-text"
          type=${this.type}
          enterkeyhint=${R(this.enterKeyHint)}
          ?disabled=${this.disabled}
          placeholder=${this.placeholder}
          @input=${this.dispatchInputChangeEvent.bind(this)}
          @keydown=${this.onKeyDown}
          .value=${this.value||""}
        />
        ${this.templateSubmitButton()}
        <slot class="wui-input-text-slot"></slot>
      </div>
      ${this.templateError()} ${this.templateWarning()}`}templateLeftIcon(){return this.icon?u`<wui-icon
        class="wui-input-text-left-icon"
        size="md"
        data-size=${this.size}
        color="inherit"
        name=${this.icon}
      ></wui-icon>`:null}templateSubmitButton(){return this.onSubmit?u`<button
        class="wui-input-text-submit-button ${this.loading?"loading":""}"
        @click=${this.onSubmit?.bind(this)}
        ?disabled=${this.disabled||this.loading}
      >
        ${this.loading?u`<wui-icon name="spinner" size="md"></wui-icon>`:u`<wui-icon name="chevronRight" size="md"></wui-icon>`}
      </button>`:null}templateError(){return this.errorText?u`<wui-text variant="sm-regular" color="error">${this.errorText}</wui-text>`:null}templateWarning(){return this.warningText?u`<wui-text variant="sm-regular" color="warning">${this.warningText}</wui-text>`:null}dispatchInputChangeEvent(){this.dispatchEvent(new CustomEvent("inputChange",{detail:this.inputElementRef.value?.value,bubbles:!0,composed:!0}))}};V.styles=[k,F,Gr];J([p()],V.prototype,"icon",void 0);J([p({type:Boolean})],V.prototype,"disabled",void 0);J([p({type:Boolean})],V.prototype,"loading",void 0);J([p()],V.prototype,"placeholder",void 0);J([p()],V.prototype,"type",void 0);J([p()],V.prototype,"value",void 0);J([p()],V.prototype,"errorText",void 0);J([p()],V.prototype,"warningText",void 0);J([p()],V.prototype,"onSubmit",void 0);J([p()],V.prototype,"size",void 0);J([p({attribute:!1})],V.prototype,"onKeyDown",void 0);V=J([h("wui-input-text")],V);a();var Qr=C`
  :host {
    position: relative;
    display: inline-block;
    width: 100%;
  }

  wui-icon {
    position: absolute;
    top: 50%;
    transform: translateY(-50%);
    right: ${({spacing:t})=>t[3]};
    color: ${({tokens:t})=>t.theme.iconDefault};
    cursor: pointer;
    padding: ${({spacing:t})=>t[2]};
    background-color: transparent;
    border-radius: ${({borderRadius:t})=>t[4]};
    transition: background-color ${({durations:t})=>t.lg}
      ${({easings:t})=>t["ease-out-power-2"]};
  }

  @media (hover: hover) {
    wui-icon:hover {
      background-color: ${({tokens:t})=>t.theme.foregroundSecondary};
    }
  }
`;var Jr=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},St=class extends g{constructor(){super(...arguments),this.inputComponentRef=Oe(),this.inputValue=""}render(){return u`
      <wui-input-text
        ${De(this.inputComponentRef)}
        placeholder="Search wallet"
        icon="search"
        type="search"
        enterKeyHint="search"
        size="sm"
        @inputChange=${this.onInputChange}
      >
        ${this.inputValue?u`<wui-icon
              @click=${this.clearValue}
              color="inherit"
              size="sm"
              name="close"
            ></wui-icon>`:null}
      </wui-input-text>
    `}onInputChange(e){this.inputValue=e.detail||""}clearValue(){let o=this.inputComponentRef.value?.inputElementRef.value;o&&(o.value="",this.inputValue="",o.focus(),o.dispatchEvent(new Event("input")))}};St.styles=[k,Qr];Jr([p()],St.prototype,"inputValue",void 0);St=Jr([h("wui-search-bar")],St);a();a();a();a();var Yr=C`
  :host {
    display: flex;
    flex-direction: column;
    justify-content: center;
    align-items: center;
    height: 104px;
    width: 104px;
    row-gap: ${({spacing:t})=>t[2]};
    background-color: ${({tokens:t})=>t.theme.foregroundPrimary};
    border-radius: ${({borderRadius:t})=>t[5]};
    position: relative;
  }

  wui-shimmer[data-type='network'] {
    border: none;
    -webkit-clip-path: var(--apkt-path-network);
    clip-path: var(--apkt-path-network);
  }

  svg {
    position: absolute;
    width: 48px;
    height: 54px;
    z-index: 1;
  }

  svg > path {
    stroke: ${({tokens:t})=>t.theme.foregroundSecondary};
    stroke-width: 1px;
  }

  @media (max-width: 350px) {
    :host {
      width: 100%;
    }
  }
`;var Xr=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},At=class extends g{constructor(){super(...arguments),this.type="wallet"}render(){return u`
      ${this.shimmerTemplate()}
      <wui-shimmer width="80px" height="20px"></wui-shimmer>
    `}shimmerTemplate(){return this.type==="network"?u` <wui-shimmer data-type=${this.type} width="48px" height="54px"></wui-shimmer>
        ${xo}`:u`<wui-shimmer width="56px" height="56px"></wui-shimmer>`}};At.styles=[k,F,Yr];Xr([p()],At.prototype,"type",void 0);At=Xr([h("wui-card-select-loader")],At);a();a();a();var Zr=nt`
  :host {
    display: grid;
    width: inherit;
    height: inherit;
  }
`;var Y=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},H=class extends g{render(){return this.style.cssText=`
      grid-template-rows: ${this.gridTemplateRows};
      grid-template-columns: ${this.gridTemplateColumns};
      justify-items: ${this.justifyItems};
      align-items: ${this.alignItems};
      justify-content: ${this.justifyContent};
      align-content: ${this.alignContent};
      column-gap: ${this.columnGap&&`var(--apkt-spacing-${this.columnGap})`};
      row-gap: ${this.rowGap&&`var(--apkt-spacing-${this.rowGap})`};
      gap: ${this.gap&&`var(--apkt-spacing-${this.gap})`};
      padding-top: ${this.padding&&Z.getSpacingStyles(this.padding,0)};
      padding-right: ${this.padding&&Z.getSpacingStyles(this.padding,1)};
      padding-bottom: ${this.padding&&Z.getSpacingStyles(this.padding,2)};
      padding-left: ${this.padding&&Z.getSpacingStyles(this.padding,3)};
      margin-top: ${this.margin&&Z.getSpacingStyles(this.margin,0)};
      margin-right: ${this.margin&&Z.getSpacingStyles(this.margin,1)};
      margin-bottom: ${this.margin&&Z.getSpacingStyles(this.margin,2)};
      margin-left: ${this.margin&&Z.getSpacingStyles(this.margin,3)};
    `,u`<slot></slot>`}};H.styles=[k,Zr];Y([p()],H.prototype,"gridTemplateRows",void 0);Y([p()],H.prototype,"gridTemplateColumns",void 0);Y([p()],H.prototype,"justifyItems",void 0);Y([p()],H.prototype,"alignItems",void 0);Y([p()],H.prototype,"justifyContent",void 0);Y([p()],H.prototype,"alignContent",void 0);Y([p()],H.prototype,"columnGap",void 0);Y([p()],H.prototype,"rowGap",void 0);Y([p()],H.prototype,"gap",void 0);Y([p()],H.prototype,"padding",void 0);Y([p()],H.prototype,"margin",void 0);H=Y([h("wui-grid")],H);a();a();var ei=C`
  button {
    display: flex;
    flex-direction: column;
    justify-content: center;
    align-items: center;
    cursor: pointer;
    width: 104px;
    row-gap: ${({spacing:t})=>t[2]};
    padding: ${({spacing:t})=>t[3]} ${({spacing:t})=>t[0]};
    background-color: ${({tokens:t})=>t.theme.foregroundPrimary};
    border-radius: clamp(0px, ${({borderRadius:t})=>t[4]}, 20px);
    transition:
      color ${({durations:t})=>t.lg} ${({easings:t})=>t["ease-out-power-1"]},
      background-color ${({durations:t})=>t.lg}
        ${({easings:t})=>t["ease-out-power-1"]},
      border-radius ${({durations:t})=>t.lg}
        ${({easings:t})=>t["ease-out-power-1"]};
    will-change: background-color, color, border-radius;
    outline: none;
    border: none;
  }

  button > wui-flex > wui-text {
    color: ${({tokens:t})=>t.theme.textPrimary};
    max-width: 86px;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
    justify-content: center;
  }

  button > wui-flex > wui-text.certified {
    max-width: 66px;
  }

  @media (hover: hover) and (pointer: fine) {
    button:hover:enabled {
      background-color: ${({tokens:t})=>t.theme.foregroundSecondary};
    }
  }

  button:disabled > wui-flex > wui-text {
    color: ${({tokens:t})=>t.core.glass010};
  }

  [data-selected='true'] {
    background-color: ${({colors:t})=>t.accent020};
  }

  @media (hover: hover) and (pointer: fine) {
    [data-selected='true']:hover:enabled {
      background-color: ${({colors:t})=>t.accent010};
    }
  }

  [data-selected='true']:active:enabled {
    background-color: ${({colors:t})=>t.accent010};
  }

  @media (max-width: 350px) {
    button {
      width: 100%;
    }
  }
`;var oe=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},X=class extends g{constructor(){super(),this.observer=new IntersectionObserver(()=>{}),this.visible=!1,this.imageSrc=void 0,this.imageLoading=!1,this.isImpressed=!1,this.explorerId="",this.walletQuery="",this.certified=!1,this.displayIndex=0,this.wallet=void 0,this.observer=new IntersectionObserver(e=>{e.forEach(o=>{o.isIntersecting?(this.visible=!0,this.fetchImageSrc(),this.sendImpressionEvent()):this.visible=!1})},{threshold:.01})}firstUpdated(){this.observer.observe(this)}disconnectedCallback(){this.observer.disconnect()}render(){let e=this.wallet?.badge_type==="certified";return u`
      <button>
        ${this.imageTemplate()}
        <wui-flex flexDirection="row" alignItems="center" justifyContent="center" gap="1">
          <wui-text
            variant="md-regular"
            color="inherit"
            class=${R(e?"certified":void 0)}
            >${this.wallet?.name}</wui-text
          >
          ${e?u`<wui-icon size="sm" name="walletConnectBrown"></wui-icon>`:null}
        </wui-flex>
      </button>
    `}imageTemplate(){return!this.visible&&!this.imageSrc||this.imageLoading?this.shimmerTemplate():u`
      <wui-wallet-image
        size="lg"
        imageSrc=${R(this.imageSrc)}
        name=${R(this.wallet?.name)}
        .installed=${this.wallet?.installed??!1}
        badgeSize="sm"
      >
      </wui-wallet-image>
    `}shimmerTemplate(){return u`<wui-shimmer width="56px" height="56px"></wui-shimmer>`}async fetchImageSrc(){this.wallet&&(this.imageSrc=K.getWalletImage(this.wallet),!this.imageSrc&&(this.imageLoading=!0,this.imageSrc=await K.fetchWalletImage(this.wallet.image_id),this.imageLoading=!1))}sendImpressionEvent(){!this.wallet||this.isImpressed||(this.isImpressed=!0,P.sendWalletImpressionEvent({name:this.wallet.name,walletRank:this.wallet.order,explorerId:this.explorerId,view:b.state.view,query:this.walletQuery,certified:this.certified,displayIndex:this.displayIndex}))}};X.styles=ei;oe([f()],X.prototype,"visible",void 0);oe([f()],X.prototype,"imageSrc",void 0);oe([f()],X.prototype,"imageLoading",void 0);oe([f()],X.prototype,"isImpressed",void 0);oe([p()],X.prototype,"explorerId",void 0);oe([p()],X.prototype,"walletQuery",void 0);oe([p()],X.prototype,"certified",void 0);oe([p()],X.prototype,"displayIndex",void 0);oe([p({type:Object})],X.prototype,"wallet",void 0);X=oe([h("w3m-all-wallets-list-item")],X);a();var ti=C`
  wui-grid {
    max-height: clamp(360px, 400px, 80vh);
    overflow: scroll;
    scrollbar-width: none;
    grid-auto-rows: min-content;
    grid-template-columns: repeat(auto-fill, 104px);
  }

  :host([data-mobile-fullscreen='true']) wui-grid {
    max-height: none;
  }

  @media (max-width: 350px) {
    wui-grid {
      grid-template-columns: repeat(2, 1fr);
    }
  }

  wui-grid[data-scroll='false'] {
    overflow: hidden;
  }

  wui-grid::-webkit-scrollbar {
    display: none;
  }

  w3m-all-wallets-list-item {
    opacity: 0;
    animation-duration: ${({durations:t})=>t.xl};
    animation-timing-function: ${({easings:t})=>t["ease-inout-power-2"]};
    animation-name: fade-in;
    animation-fill-mode: forwards;
  }

  @keyframes fade-in {
    from {
      opacity: 0;
    }
    to {
      opacity: 1;
    }
  }

  wui-loading-spinner {
    padding-top: ${({spacing:t})=>t[4]};
    padding-bottom: ${({spacing:t})=>t[4]};
    justify-content: center;
    grid-column: 1 / span 4;
  }
`;var Ze=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},oi="local-paginator",$e=class extends g{constructor(){super(),this.unsubscribe=[],this.paginationObserver=void 0,this.loading=!T.state.wallets.length,this.wallets=T.state.wallets,this.mobileFullScreen=N.state.enableMobileFullScreen,this.unsubscribe.push(T.subscribeKey("wallets",e=>this.wallets=e))}firstUpdated(){this.mobileFullScreen&&this.setAttribute("data-mobile-fullscreen","true"),this.initialFetch(),this.createPaginationObserver()}disconnectedCallback(){this.unsubscribe.forEach(e=>e()),this.paginationObserver?.disconnect()}render(){return u`
      <wui-grid
        data-scroll=${!this.loading}
        .padding=${["0","3","3","3"]}
        gap="2"
        justifyContent="space-between"
      >
        ${this.loading?this.shimmerTemplate(16):this.walletsTemplate()}
        ${this.paginationLoaderTemplate()}
      </wui-grid>
    `}async initialFetch(){this.loading=!0;let e=this.shadowRoot?.querySelector("wui-grid");e&&(await T.fetchWalletsByPage({page:1}),await e.animate([{opacity:1},{opacity:0}],{duration:200,fill:"forwards",easing:"ease"}).finished,this.loading=!1,e.animate([{opacity:0},{opacity:1}],{duration:200,fill:"forwards",easing:"ease"}))}shimmerTemplate(e,o){return[...Array(e)].map(()=>u`
        <wui-card-select-loader type="wallet" id=${R(o)}></wui-card-select-loader>
      `)}walletsTemplate(){return je.getWalletConnectWallets(this.wallets).map((e,o)=>u`
        <w3m-all-wallets-list-item
          data-testid="wallet-search-item-${e.id}"
          @click=${()=>this.onConnectWallet(e)}
          .wallet=${e}
          explorerId=${e.id}
          certified=${this.badge==="certified"}
          displayIndex=${o}
        ></w3m-all-wallets-list-item>
      `)}paginationLoaderTemplate(){let{wallets:e,recommended:o,featured:r,count:n,mobileFilteredOutWalletsLength:i}=T.state,s=window.innerWidth<352?3:4,l=e.length+o.length,m=Math.ceil(l/s)*s-l+s;return m-=e.length?r.length%s:0,n===0&&r.length>0?null:n===0||[...r,...e,...o].length<n-(i??0)?this.shimmerTemplate(m,oi):null}createPaginationObserver(){let e=this.shadowRoot?.querySelector(`#${oi}`);e&&(this.paginationObserver=new IntersectionObserver(([o])=>{if(o?.isIntersecting&&!this.loading){let{page:r,count:n,wallets:i}=T.state;i.length<n&&T.fetchWalletsByPage({page:r+1})}}),this.paginationObserver.observe(e))}onConnectWallet(e){z.selectWalletConnector(e)}};$e.styles=ti;Ze([f()],$e.prototype,"loading",void 0);Ze([f()],$e.prototype,"wallets",void 0);Ze([f()],$e.prototype,"badge",void 0);Ze([f()],$e.prototype,"mobileFullScreen",void 0);$e=Ze([h("w3m-all-wallets-list")],$e);a();a();var ri=nt`
  wui-grid,
  wui-loading-spinner,
  wui-flex {
    height: 360px;
  }

  wui-grid {
    overflow: scroll;
    scrollbar-width: none;
    grid-auto-rows: min-content;
    grid-template-columns: repeat(auto-fill, 104px);
  }

  :host([data-mobile-fullscreen='true']) wui-grid {
    max-height: none;
    height: auto;
  }

  wui-grid[data-scroll='false'] {
    overflow: hidden;
  }

  wui-grid::-webkit-scrollbar {
    display: none;
  }

  wui-loading-spinner {
    justify-content: center;
    align-items: center;
  }

  @media (max-width: 350px) {
    wui-grid {
      grid-template-columns: repeat(2, 1fr);
    }
  }
`;var et=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},Ee=class extends g{constructor(){super(...arguments),this.prevQuery="",this.prevBadge=void 0,this.loading=!0,this.mobileFullScreen=N.state.enableMobileFullScreen,this.query=""}render(){return this.mobileFullScreen&&this.setAttribute("data-mobile-fullscreen","true"),this.onSearch(),this.loading?u`<wui-loading-spinner color="accent-primary"></wui-loading-spinner>`:this.walletsTemplate()}async onSearch(){(this.query.trim()!==this.prevQuery.trim()||this.badge!==this.prevBadge)&&(this.prevQuery=this.query,this.prevBadge=this.badge,this.loading=!0,await T.searchWallet({search:this.query,badge:this.badge}),this.loading=!1)}walletsTemplate(){let{search:e}=T.state,o=je.markWalletsAsInstalled(e),r=je.filterWalletsByWcSupport(o);return r.length?u`
      <wui-grid
        data-testid="wallet-list"
        .padding=${["0","3","3","3"]}
        rowGap="4"
        columngap="2"
        justifyContent="space-between"
      >
        ${r.map((n,i)=>u`
            <w3m-all-wallets-list-item
              @click=${()=>this.onConnectWallet(n)}
              .wallet=${n}
              data-testid="wallet-search-item-${n.id}"
              explorerId=${n.id}
              certified=${this.badge==="certified"}
              walletQuery=${this.query}
              displayIndex=${i}
            ></w3m-all-wallets-list-item>
          `)}
      </wui-grid>
    `:u`
        <wui-flex
          data-testid="no-wallet-found"
          justifyContent="center"
          alignItems="center"
          gap="3"
          flexDirection="column"
        >
          <wui-icon-box size="lg" color="default" icon="wallet"></wui-icon-box>
          <wui-text data-testid="no-wallet-found-text" color="secondary" variant="md-medium">
            No Wallet found
          </wui-text>
        </wui-flex>
      `}onConnectWallet(e){z.selectWalletConnector(e)}};Ee.styles=ri;et([f()],Ee.prototype,"loading",void 0);et([f()],Ee.prototype,"mobileFullScreen",void 0);et([p()],Ee.prototype,"query",void 0);et([p()],Ee.prototype,"badge",void 0);Ee=et([h("w3m-all-wallets-search")],Ee);var co=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},Tt=class extends g{constructor(){super(...arguments),this.search="",this.badge=void 0,this.onDebouncedSearch=x.debounce(e=>{this.search=e})}render(){let e=this.search.length>=2;return u`
      <wui-flex .padding=${["1","3","3","3"]} gap="2" alignItems="center">
        <wui-search-bar @inputChange=${this.onInputChange.bind(this)}></wui-search-bar>
        <wui-certified-switch
          ?checked=${this.badge==="certified"}
          @certifiedSwitchChange=${this.onCertifiedSwitchChange.bind(this)}
          data-testid="wui-certified-switch"
        ></wui-certified-switch>
        ${this.qrButtonTemplate()}
      </wui-flex>
      ${e||this.badge?u`<w3m-all-wallets-search
            query=${this.search}
            .badge=${this.badge}
          ></w3m-all-wallets-search>`:u`<w3m-all-wallets-list .badge=${this.badge}></w3m-all-wallets-list>`}
    `}onInputChange(e){this.onDebouncedSearch(e.detail)}onCertifiedSwitchChange(e){e.detail?(this.badge="certified",le.showSvg("Only WalletConnect certified",{icon:"walletConnectBrown",iconColor:"accent-100"})):this.badge=void 0}qrButtonTemplate(){return x.isMobile()?u`
        <wui-icon-box
          size="xl"
          iconSize="xl"
          color="accent-primary"
          icon="qrCode"
          border
          borderColor="wui-accent-glass-010"
          @click=${this.onWalletConnectQr.bind(this)}
        ></wui-icon-box>
      `:null}onWalletConnectQr(){b.push("ConnectingWalletConnect")}};co([f()],Tt.prototype,"search",void 0);co([f()],Tt.prototype,"badge",void 0);Tt=co([h("w3m-all-wallets-view")],Tt);a();var dn=function(t,e,o,r){var n=arguments.length,i=n<3?e:r===null?r=Object.getOwnPropertyDescriptor(e,o):r,s;if(typeof Reflect=="object"&&typeof Reflect.decorate=="function")i=Reflect.decorate(t,e,o,r);else for(var l=t.length-1;l>=0;l--)(s=t[l])&&(i=(n<3?s(i):n>3?s(e,o,i):s(e,o))||i);return n>3&&i&&Object.defineProperty(e,o,i),i},ii=class extends g{constructor(){super(...arguments),this.wallet=b.state.data?.wallet}render(){if(!this.wallet)throw new Error("w3m-downloads-view");return u`
      <wui-flex gap="2" flexDirection="column" .padding=${["3","3","4","3"]}>
        ${this.chromeTemplate()} ${this.iosTemplate()} ${this.androidTemplate()}
        ${this.homepageTemplate()}
      </wui-flex>
    `}chromeTemplate(){return this.wallet?.chrome_store?u`<wui-list-item
      variant="icon"
      icon="chromeStore"
      iconVariant="square"
      @click=${this.onChromeStore.bind(this)}
      chevron
    >
      <wui-text variant="md-medium" color="primary">Chrome Extension</wui-text>
    </wui-list-item>`:null}iosTemplate(){return this.wallet?.app_store?u`<wui-list-item
      variant="icon"
      icon="appStore"
      iconVariant="square"
      @click=${this.onAppStore.bind(this)}
      chevron
    >
      <wui-text variant="md-medium" color="primary">iOS App</wui-text>
    </wui-list-item>`:null}androidTemplate(){return this.wallet?.play_store?u`<wui-list-item
      variant="icon"
      icon="playStore"
      iconVariant="square"
      @click=${this.onPlayStore.bind(this)}
      chevron
    >
      <wui-text variant="md-medium" color="primary">Android App</wui-text>
    </wui-list-item>`:null}homepageTemplate(){return this.wallet?.homepage?u`
      <wui-list-item
        variant="icon"
        icon="browser"
        iconVariant="square-blue"
        @click=${this.onHomePage.bind(this)}
        chevron
      >
        <wui-text variant="md-medium" color="primary">Website</wui-text>
      </wui-list-item>
    `:null}openStore(e){e.href&&this.wallet&&(P.sendEvent({type:"track",event:"GET_WALLET",properties:{name:this.wallet.name,walletRank:this.wallet.order,explorerId:this.wallet.id,type:e.type}}),x.openHref(e.href,"_blank"))}onChromeStore(){this.wallet?.chrome_store&&this.openStore({href:this.wallet.chrome_store,type:"chrome_store"})}onAppStore(){this.wallet?.app_store&&this.openStore({href:this.wallet.app_store,type:"app_store"})}onPlayStore(){this.wallet?.play_store&&this.openStore({href:this.wallet.play_store,type:"play_store"})}onHomePage(){this.wallet?.homepage&&this.openStore({href:this.wallet.homepage,type:"homepage"})}};ii=dn([h("w3m-downloads-view")],ii);export{Tt as W3mAllWalletsView,vt as W3mConnectingWcBasicView,ii as W3mDownloadsView};
